#include "commands.h"
#include "importer/kernel_import.h"

#include <filesystem>
#include <ostream>

namespace ptowb::cli {

namespace {

const char* const kImportUsage = "usage: ptowb-cli import FILE [--function KERNEL] [--out DIR] "
                                 "[--name OP] [--time-limit S] [--python PATH] [--show-output]\n"
                                 "       ptowb-cli import FILE --list\n";

} // namespace

int runImport(const CommandLine& cmd, std::ostream& out, std::ostream& err)
{
    if (cmd.positional.size() != 1) {
        err << kImportUsage;
        return kUsageError;
    }
    importer::ImportOptions options;
    options.file = cmd.positional[0];
    if (auto v = cmd.values("function"); !v.empty()) options.function = v.back();
    if (auto v = cmd.values("name"); !v.empty()) options.name = v.back();
    if (auto v = cmd.values("time-limit"); !v.empty()) {
        try {
            options.seconds = std::stod(v.back());
        } catch (const std::exception&) {
            err << "ptowb-cli: --time-limit takes seconds, not '" << v.back() << "'\n";
            return kUsageError;
        }
    }
    auto listed = importer::listJitKernels(options.file);
    if (auto* d = std::get_if<Diagnostic>(&listed)) {
        err << formatDiagnostic(*d) << '\n';
        return d->code == "import.file" ? kUsageError : kFailure;
    }
    const auto& kernels = std::get<std::vector<importer::JitKernel>>(listed);
    if (cmd.hasFlag("list")) { // the file's kernels, one per line; nothing runs
        for (const auto& k : kernels)
            out << k.name << '\t' << k.line << (k.inside.empty() ? "" : "\t" + k.inside) << '\n';
        return kSuccess;
    }
    if (options.function.empty() && kernels.size() == 1) options.function = kernels[0].name;
    if (auto v = cmd.values("out"); !v.empty())
        options.outDir = v.back();
    else {
        // Beside the file, named after the kernel: <folder>/<kernel>_op.
        const std::string base = options.function.empty()
                                     ? std::filesystem::path(options.file).stem().string()
                                     : options.function;
        options.outDir =
            (std::filesystem::path(options.file).parent_path() / (base + "_op")).string();
    }
    err << "ptowb-cli: running " << options.file << "'s own code to record its kernel calls\n";
    const auto result = importer::importKernel(options);
    if (cmd.hasFlag("show-output") && !result.log.empty()) // what the file printed while recorded
        err << "--- output of " << options.file << " ---\n"
            << result.log << (result.log.back() == '\n' ? "" : "\n") << "--- end of output ---\n";
    for (const auto& d : result.diagnostics)
        err << formatDiagnostic(d) << '\n';
    if (!result.ok) return kFailure;
    out << "created " << result.projectDir << " from " << result.kernel << '\n';
    for (const auto& line : result.inferred)
        out << "  " << line << '\n';
    const int todo = countErrors(result.diagnostics);
    // The interpreter the file was recorded in is the one to verify in (a venv's python3).
    const auto python = cmd.values("python");
    out << (todo ? std::to_string(todo) + " thing(s) to fill in (above); then: ptowb-cli verify "
                 : std::string("next: ptowb-cli verify "))
        << result.projectDir << " --against sim"
        << (python.empty() ? std::string() : " --python " + python.back()) << '\n';
    return kSuccess;
}

} // namespace ptowb::cli
