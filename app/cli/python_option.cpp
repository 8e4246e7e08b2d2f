#include "commands.h"
#include "interpreter/interpreter.h"
#include "worker_client/worker_client.h"

#include <ostream>
#include <set>

namespace ptowb::cli {

bool chooseInterpreter(const CommandLine& cmd, std::ostream& err)
{
    const auto given = cmd.values("python");
    const std::string chosen = given.empty() ? "" : given.back();
    worker::WorkerClient::choosePython(chosen);
    worker::WorkerClient::setProgressHandler(
        [&err](const std::string& message) { err << "ptowb-cli: " << message << '\n'; });
    // Commands that run kernel.py (or the reference, which runs beside it) check the interpreter
    // first, so a missing or unsuitable one is one message and a usage error, not a case error.
    static const std::set<std::string> kRunsKernels = {"run", "verify", "export", "redeploy",
                                                       "import"};
    if (!kRunsKernels.count(cmd.command)) return true;
    auto found = interpreter::kernelInterpreter(chosen);
    if (auto* e = std::get_if<std::string>(&found)) {
        err << "ptowb-cli: " << *e << '\n';
        return false;
    }
    return true;
}

} // namespace ptowb::cli
