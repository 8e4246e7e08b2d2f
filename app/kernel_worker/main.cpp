// ptowb-kernel-worker [--python PATH] [--memory-limit-mb N] [--lifeline-fd FD]: starts the kernel
// worker in the chosen Python interpreter (core/interpreter): checks that it can run kernels, finds
// or builds the worker's native part for it and its torch, then runs that interpreter on
// ptowb_boot.py as its child and stays its subreaper (core/process/reaper.h), so that whatever
// the kernels start ends with the worker: when it exits, when this process gets SIGTERM, or when
// FD (a pipe the client holds the other end of) closes. SIGUSR1 (interrupt the kernel) is passed
// on. Until the worker runs it speaks the worker's protocol on stdout: progress lines while
// building, or one error line (exit 2) naming the interpreter and the fix.
#include "interpreter/interpreter.h"
#include "interpreter/worker_build.h"
#include "process/reaper.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

using nlohmann::json;
namespace ip = ptowb::interpreter;

void say(const json& line)
{
    const std::string text = line.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
}

int fail(const std::string& code, const std::string& message)
{
    say({{"status", "error"}, {"code", code}, {"message", message}, {"line", 1}, {"col", 1}});
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    std::string chosen, memoryLimit = "0";
    int lifeline = -1;
    for (int k = 1; k + 1 < argc; k += 2) {
        const std::string flag = argv[k];
        if (flag == "--python")
            chosen = argv[k + 1];
        else if (flag == "--memory-limit-mb")
            memoryLimit = argv[k + 1];
        else if (flag == "--lifeline-fd")
            lifeline = std::atoi(argv[k + 1]);
    }
    const std::string python = ip::choosePython(chosen);
    const std::string libDir = ip::workerLibDir();
    auto probed = ip::kernelInterpreter(python);
    if (auto* e = std::get_if<std::string>(&probed)) return fail("worker.python", *e);
    const ip::Interpreter& interpreter = std::get<ip::Interpreter>(probed);
    auto module = ip::workerModuleFor(interpreter, libDir, [](const std::string& message) {
        say({{"status", "progress"}, {"message", message}});
    });
    if (auto* e = std::get_if<std::string>(&module)) return fail("worker.build", *e);
    const ip::WorkerModule& built = std::get<ip::WorkerModule>(module);
    const json ready = {{"status", "ready"},
                        {"executable", interpreter.path},
                        {"python", interpreter.python},
                        {"torch", interpreter.torch},
                        {"pypto", interpreter.pypto},
                        {"torch_npu", interpreter.torchNpu},
                        {"description", ip::describe(interpreter)}};
    // -B: no bytecode beside the author's files. Python trusts a cached .pyc whose source has the
    // same size and modification second, so a same-length edit saved within a second of the last
    // run (`OFFSET = 1.5` to `2.5`) would run the old code; and the folders import runs stay as
    // the author left them.
    std::vector<std::string> args = {python,       "-E",
                                     "-B",         libDir + "/python/ptowb_boot.py",
                                     built.module, built.referenceModule,
                                     memoryLimit,  ready.dump()};
    std::string error;
    const int status = ptowb::process::superviseChild(args, lifeline, false, error);
    if (status < 0) return fail("worker.python", error);
    ptowb::process::exitLike(status);
}
