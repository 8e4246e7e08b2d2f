#include "importer/kernel_import.h"

#include "diag/text_position.h"
#include "importer/import_proposal.h"
#include "io/atomic_write.h"
#include "io/remove_tree.h"
#include "kernel/kernel_parser.h"
#include "reference/reference_checker.h"
#include "spec/op_spec_loader.h"
#include "worker_client/worker_client.h"

#include "json/json_document.h"
#include "json/json_text.h"
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace ptowb::importer {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

constexpr std::uintmax_t kMaxKernelFileBytes = 8u << 20;

Diagnostic errorAt(const std::string& file, int line, int col, std::string code,
                   std::string message)
{
    Diagnostic d;
    d.file = file;
    d.line = line;
    d.col = col;
    d.endLine = line;
    d.endCol = col;
    d.severity = Severity::Error;
    d.code = std::move(code);
    d.message = std::move(message);
    return d;
}

std::variant<std::string, Diagnostic> readKernelFile(const std::string& file)
{
    std::error_code ec;
    const auto size = fs::file_size(file, ec);
    if (ec || !fs::is_regular_file(file))
        return errorAt(file, 1, 1, "import.file", "cannot read " + file + ": not a file");
    if (size > kMaxKernelFileBytes)
        return errorAt(file, 1, 1, "import.file",
                       "the file is larger than 8 MiB: not a kernel file");
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) return errorAt(file, 1, 1, "import.file", "cannot read " + file);
    return text.str();
}

// The folder import stages the project in, beside its final place, so the last step is a rename.
std::string stagingFolder(const fs::path& out)
{
    std::random_device random;
    return (out.parent_path() /
            ("." + out.filename().string() + ".import-" + std::to_string(random())))
        .string();
}

std::string copyFile(const std::string& from, const fs::path& to)
{
    std::error_code ec;
    fs::create_directories(to.parent_path(), ec);
    if (!ec) fs::copy_file(from, to, fs::copy_options::none, ec);
    return ec ? "cannot copy " + from + ": " + ec.message() : "";
}

// The line of reference.py's TODO, where what is left to write is reported.
int todoLine(const std::string& reference)
{
    const auto at = reference.find("raise RuntimeError(\"TODO");
    return at == std::string::npos
               ? 1
               : int(std::count(reference.begin(), reference.begin() + long(at), '\n')) + 1;
}

// Why the reference proposed from the file's golden fails reference.py's checks against the
// proposed op.json ("" when it passes them).
ReferenceCheck referenceChecker(const std::atomic<bool>* cancel)
{
    return [cancel](const nlohmann::ordered_json& op, const std::string& reference) {
        const auto loaded = loadOpSpecText(readableJson(op) + "\n", "op.json", "");
        const Diagnostics found =
            checkReferenceBounded(loaded.spec, reference, "reference.py", cancel);
        const auto error = std::find_if(found.begin(), found.end(), [](const Diagnostic& d) {
            return d.severity == Severity::Error;
        });
        return error == found.end() ? std::string()
                                    : error->message + ", line " + std::to_string(error->line) +
                                          " of the proposal below";
    };
}

} // namespace

namespace {

// Jit kernels in `s` and the statements nested in it; `inside` is the top-level function or
// class they are in.
void collectJitKernels(const kernel::Module& module, const kernel::Stmt& s,
                       const std::string& inside, std::vector<JitKernel>& out)
{
    std::string within = inside;
    if (s.kind == kernel::StmtKind::Def && s.function) {
        const kernel::FunctionDef& fn = *s.function;
        if (kernel::isJitKernel(module, fn)) {
            JitKernel k{fn.name, fn.pos.line, fn.pos.col, {}, inside};
            for (const auto& p : fn.params)
                k.params.push_back(p.star + p.name);
            out.push_back(std::move(k));
        }
        if (within.empty()) within = fn.name;
        for (const auto& b : fn.body)
            collectJitKernels(module, b, within, out);
    }
    if (s.kind == kernel::StmtKind::Class && within.empty()) within = s.op;
    for (const auto* part : {&s.body, &s.orelse, &s.handlers})
        for (const auto& b : *part)
            collectJitKernels(module, b, within, out);
}

} // namespace

namespace {

// Nothing called a kernel the file makes inside a function: say which, and where.
void unreachedKernel(const std::string& file, const std::string& function, Proposal& proposal)
{
    auto listed = listJitKernels(file);
    const auto* kernels = std::get_if<std::vector<JitKernel>>(&listed);
    if (!kernels) return;
    for (const JitKernel& k : *kernels)
        if (!k.inside.empty() && (function.empty() || function == k.name)) {
            proposal.error = "the kernel '" + k.name + "' is made inside '" + k.inside +
                             "', and nothing in this file built and called it: call it from a "
                             "test or main() of this file that needs no arguments (op.json's "
                             "kernel.made_by names that function)";
            proposal.errorLine = k.line;
            proposal.errorCol = k.col;
            return;
        }
}

} // namespace

std::variant<std::vector<JitKernel>, Diagnostic> listJitKernels(const std::string& file)
{
    auto read = readKernelFile(file);
    if (auto* d = std::get_if<Diagnostic>(&read)) return *d;
    Diagnostics diagnostics;
    const auto module = kernel::parseKernel(std::get<std::string>(read), file, diagnostics);
    for (const auto& d : diagnostics)
        if (d.severity == Severity::Error) return d;
    std::vector<JitKernel> kernels;
    for (const auto& s : module.statements)
        collectJitKernels(module, s, "", kernels);
    return kernels;
}

ImportResult importKernel(const ImportOptions& options, const std::atomic<bool>* cancel)
{
    ImportResult result;
    const std::string file = fs::absolute(options.file).lexically_normal().string();
    auto read = readKernelFile(file);
    if (auto* d = std::get_if<Diagnostic>(&read)) {
        result.diagnostics.push_back(*d);
        return result;
    }
    const fs::path out = fs::absolute(options.outDir).lexically_normal();
    std::error_code ec;
    if (fs::exists(fs::symlink_status(out, ec)) &&
        !(fs::is_directory(out) && fs::is_empty(out, ec))) {
        result.diagnostics.push_back(
            errorAt(out.string(), 1, 1, "import.exists",
                    "import never overwrites: " + out.string() + " exists and is not empty"));
        return result;
    }
    const std::string staging = stagingFolder(out);
    const fs::path recorded = fs::path(staging) / ".recording";
    fs::create_directories(recorded, ec);
    if (ec) {
        result.diagnostics.push_back(errorAt(out.string(), 1, 1, "import.write",
                                             "cannot create " + staging + ": " + ec.message()));
        return result;
    }
    auto fail = [&](Diagnostic d) {
        removeTree(staging);
        result.diagnostics.insert(result.diagnostics.begin(), std::move(d));
        return result;
    };

    // The file's own code runs in a worker of its own, ended with the import.
    worker::WorkerClient client;
    const json answer = client.call({{"op", "record"},
                                     {"file", file},
                                     {"source", std::get<std::string>(read)},
                                     {"out_dir", recorded.string()},
                                     {"seconds", options.seconds}},
                                    options.seconds + 60, cancel);
    result.log = answer.value("log", "");
    if (answer.value("status", "") != "ok")
        return fail(errorAt(file, answer.value("line", 1), answer.value("col", 1),
                            answer.value("code", "import.run"),
                            "running the file failed: " +
                                answer.value("message", std::string("no answer"))));
    for (const auto& e : answer.value("errors", json::array())) {
        // A test file beside the kernel file reports its failures at its own lines.
        const bool elsewhere = e.contains("file") && e["file"].is_string();
        Diagnostic d = errorAt(elsewhere ? e["file"].get<std::string>() : file, e.value("line", 1),
                               e.value("col", 1), "import.host-code",
                               e.value("entry", "") + ": " + e.value("message", ""));
        d.severity = Severity::Warning;
        result.diagnostics.push_back(d);
    }

    Proposal proposal =
        propose(answer, file, options.function, options.name, referenceChecker(cancel));
    for (const auto& t : answer.value("test_files", json::array()))
        if (t.is_string())
            proposal.inferred.insert(proposal.inferred.begin(),
                                     "calls recorded by running " +
                                         fs::path(t.get<std::string>()).filename().string() +
                                         ", which imports the kernel file");
    result.kernel = proposal.kernel;
    // A kernel the file makes inside a function but never built and called: when it is the one
    // asked for, or when nothing was called at all.
    if (!proposal.error.empty() && proposal.kernel.empty() &&
        (!options.function.empty() || answer.value("calls", json::array()).empty()))
        unreachedKernel(file, options.function, proposal);
    if (!proposal.error.empty())
        return fail(
            errorAt(file, proposal.errorLine, proposal.errorCol, "import.kernel", proposal.error));
    const std::string opJson = readableJson(proposal.op) + "\n";

    for (const auto& f : proposal.files)
        if (std::string e = copyFile(f.source, fs::path(staging) / f.project); !e.empty())
            return fail(errorAt(out.string(), 1, 1, "import.write", e));
    for (const auto& [name, text] : {std::pair<std::string, std::string>{"op.json", opJson},
                                     {"reference.py", proposal.reference}})
        if (std::string e = writeAtomically((fs::path(staging) / name).string(), {text});
            !e.empty())
            return fail(errorAt(out.string(), 1, 1, "import.write", e));
    removeTree(recorded.string());
    if (fs::exists(out)) fs::remove(out, ec); // empty, checked above
    fs::rename(staging, out, ec);
    if (ec)
        return fail(errorAt(out.string(), 1, 1, "import.write",
                            "cannot create " + out.string() + ": " + ec.message()));

    // What is left to fill in, at the op.json value it concerns.
    const auto document = JsonDocument::parse(opJson, (out / "op.json").string());
    const LineIndex lines(opJson);
    for (const auto& f : proposal.fillIns) {
        const JsonSpan span = document.valueSpan(f.pointer);
        const LineCol at = lines.at(span.begin);
        const bool reference = f.pointer == "/reference";
        Diagnostic d = errorAt((out / (reference ? "reference.py" : "op.json")).string(),
                               reference ? todoLine(proposal.reference) : at.line,
                               reference ? 5 : at.col, f.code, f.message);
        d.severity = f.severity;
        d.pointer = f.pointer;
        result.diagnostics.push_back(d);
    }
    result.ok = true;
    result.projectDir = out.string();
    result.inferred = proposal.inferred;
    result.referenceFromGolden = proposal.referenceFromGolden;
    result.cases = int(proposal.op.value("cases", nlohmann::ordered_json::array()).size());
    return result;
}

} // namespace ptowb::importer
