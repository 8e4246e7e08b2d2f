#include "cli_options.h"
#include "commands.h"

#include <iostream>
#include <string>
#include <vector>

namespace {

const char* const kUsage = R"(usage: ptowb-cli <command> <project> [options]

commands:
  validate <project>                       check op.json, its rules, kernel and reference
  infer <project> --input NAME=SHAPE[:DTYPE]... [--param NAME=VALUE]...
                                           evaluate the shape/dtype rules; print JSON
  run <project> --backend ref|sim|pypto-sim|npu|NAME [--case C] [--out DIR] [--platform P] [--trace FILE] [--capture] [--time-limit S]
                                           run the cases; write the run folder (sim: the built-in simulator)
  compare ACTUAL.npy EXPECTED.npy [--rtol R] [--atol A] [--json]
                                           metrics and verdict for two tensors
  verify <project> [--against sim|pypto-sim|npu|NAME] [--case C] [--json FILE] [--junit FILE] [--platform P] [--trace FILE] [--time-limit S]
                                           validate, generate, then the reference against sim, the real
                                           PyPTO or a runner (default: the first runner of runners.json, else sim)
  backends <project> [--python PY]         what --against and --backend can use here, and why not
  generate <project> [--out DIR]           validate, then write the torch, ONNX and CANN glue (default
                                           <project>/.ptowb/glue; the previous generation is kept beside it)
  export <project> [--out DIR] [--archive] [--against sim|NAME] [--force]
                                           validate, generate, verify, then write the op package (default
                                           <project>/packages) and a .tar.gz; a failing verify stops it unless --force
  check-package <package folder or .tar.gz> recompute the manifest's hashes; name missing, extra, changed, unsafe files
  onnx-infer MODEL.onnx --package DIR [--out FILE]
                                           ONNX shape inference with the op's schema; print every value
  inspect MODEL.onnx [--package DIR]       list custom nodes and their records; compare with a package
  redeploy <project> [--target NAME] [--against sim|NAME] [--platform P]
                                           validate, generate, verify, export, deploy; unchanged steps are skipped
  deploy <project> --target NAME           deploy the exported package (targets in deploy.json)
  new DIR --template elementwise|reduction|matmul --name N [--namespace NS]
                                           start an op project from a template
  import FILE [--function KERNEL] [--out DIR] [--name OP] [--list] [--show-output]
                                           make a project of an existing kernel file: runs the file's own
                                           main and tests (or the test files beside it that import it) to
                                           record its kernel calls (default DIR: <kernel>_op beside it)

Commands that run kernel.py (run, verify, export, redeploy, import) and backends take --python PATH: the Python
interpreter to run it in; a bare name such as python3 is looked up on PATH (default: $PTOWB_PYTHON,
else the system Python the workbench was built with). Any CPython 3.9 or newer with torch 1.13 or newer; the kernel worker is built for a new
interpreter or torch once, on first use.

Diagnostics are printed as file:line:col: severity: message.
Exit status: 0 success, 1 failure (invalid op, failed constraint), 2 usage or I/O error.
)";

} // namespace

int main(int argc, char** argv)
{
    using namespace ptowb::cli;
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        (args.empty() ? std::cerr : std::cout) << kUsage;
        return args.empty() ? kUsageError : kSuccess;
    }
    CommandLine cmd;
    cmd.command = args[0];
    args.erase(args.begin());
    // `compare --json` is a switch; `verify --json FILE` names a file.
    const std::vector<std::string> valued =
        cmd.command == "compare"
            ? std::vector<std::string>{"rtol", "atol"}
            : std::vector<std::string>{"input",      "param",  "backend",  "case",    "out",
                                       "against",    "json",   "junit",    "package", "platform",
                                       "trace",      "target", "template", "name",    "namespace",
                                       "time-limit", "python", "function"};
    if (const std::string error = parseCommandLine(args, valued, cmd); !error.empty()) {
        std::cerr << "ptowb-cli: " << error << '\n';
        return kUsageError;
    }
    if (!chooseInterpreter(cmd, std::cerr)) return kUsageError;
    if (cmd.command == "validate") return runValidate(cmd, std::cout, std::cerr);
    if (cmd.command == "infer") return runInfer(cmd, std::cout, std::cerr);
    if (cmd.command == "run") return runRun(cmd, std::cout, std::cerr);
    if (cmd.command == "compare") return runCompare(cmd, std::cout, std::cerr);
    if (cmd.command == "verify") return runVerify(cmd, std::cout, std::cerr);
    if (cmd.command == "generate") return runGenerate(cmd, std::cout, std::cerr);
    if (cmd.command == "export") return runExport(cmd, std::cout, std::cerr);
    if (cmd.command == "check-package") return runCheckPackage(cmd, std::cout, std::cerr);
    if (cmd.command == "onnx-infer") return runOnnxInfer(cmd, std::cout, std::cerr);
    if (cmd.command == "inspect") return runInspect(cmd, std::cout, std::cerr);
    if (cmd.command == "redeploy") return runRedeploy(cmd, std::cout, std::cerr);
    if (cmd.command == "deploy") return runDeploy(cmd, std::cout, std::cerr);
    if (cmd.command == "new") return runNew(cmd, std::cout, std::cerr);
    if (cmd.command == "import") return runImport(cmd, std::cout, std::cerr);
    if (cmd.command == "backends") return runBackends(cmd, std::cout, std::cerr);
    std::cerr << "ptowb-cli: unknown command '" << cmd.command << "'\n\n" << kUsage;
    return kUsageError;
}
