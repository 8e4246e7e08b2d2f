#include "pipeline/pipeline.h"

#include "diag/suggest.h"
#include "digest/sha256.h"
#include "interpreter/interpreter.h"
#include "package/package_check.h"
#include "package/package_export.h"
#include "pipeline/deploy_target.h"
#include "project/atomic_file.h"
#include "project/glue_generation.h"
#include "project/project_sources.h"
#include "run/platforms.h"
#include "run/tolerance_defaults.h"
#include "run_folder/run_folder.h"
#include "text/duration.h"
#include "worker_client/worker_client.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

namespace ptowb {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kKeptRuns = 20; // run folders a project keeps: the last ten verifies

// What earlier runs left: the input hash each step last succeeded with, and a digest of what it
// wrote. It lives in the user's cache (one file per project folder), never in the project: a
// project that ships its own cannot make a failing kernel or a changed package pass as reused.
class PipelineState
{
public:
    explicit PipelineState(const Project& project)
    {
        const std::string& folder = project.folder(); // absolute
        const std::string key = sha256Hex(folder).substr(0, 24);
        m_path = interpreter::cacheRoot() + "/pipeline/" + key + ".json";
        std::string text;
        std::string error;
        if (readTextFile(m_path, text, error)) {
            m_state = nlohmann::json::parse(text, nullptr, false);
            if (!m_state.is_object()) m_state = nlohmann::json::object();
        }
        m_state["project"] = folder; // for whoever looks in the cache
    }
    // The step succeeded with these inputs and left output whose digest is `output` ("" for a
    // step that leaves nothing to check).
    bool unchanged(const char* step, const std::string& hash, const std::string& output = {}) const
    {
        return text(step) == hash && text(std::string(step) + ".output") == output;
    }
    void record(const char* step, const std::string& hash, const std::string& output = {})
    {
        m_state[step] = hash;
        m_state[std::string(step) + ".output"] = output;
        save();
    }
    void forget(const char* step)
    {
        m_state.erase(step);
        save();
    }

private:
    std::string text(const std::string& key) const
    {
        const auto it = m_state.find(key); // a damaged cache file may hold anything
        return it != m_state.end() && it->is_string() ? it->get<std::string>() : std::string("\1");
    }
    void save()
    {
        std::error_code ec;
        fs::create_directories(fs::path(m_path).parent_path(), ec);
        writeFileAtomically(m_path, m_state.dump(2));
    }

    std::string m_path;
    nlohmann::json m_state = nlohmann::json::object();
};

// The package's manifest.json, hashed: what a reused export must still hold.
std::string manifestDigest(const std::string& packageFolder)
{
    std::string text;
    std::string error;
    if (!readTextFile((fs::path(packageFolder) / kManifestFile).string(), text, error)) return {};
    return sha256Hex(text);
}

// A digest of every file under a folder (names and contents): what a reused step's output must
// still be.
std::string folderDigest(const std::string& folder)
{
    std::string all;
    for (const codegen::GeneratedFile& file : readGeneratedFolder(folder))
        all += sha256Hex(file.path) + sha256Hex(file.content);
    return sha256Hex(all);
}

using Status = StepResult::Status;

// One run of the pipeline: a function per step, each returning whether the next may run.
class PipelineRun
{
public:
    PipelineRun(const Project& project, const PipelineOptions& options)
        : m_project(project), m_options(options), m_state(project)
    {
    }

    PipelineResult run()
    {
        if (validate() && m_options.stopAfter > PipelineStep::Validate && generate() &&
            m_options.stopAfter > PipelineStep::Generate && verify() &&
            m_options.stopAfter > PipelineStep::Verify && exportPackage() &&
            m_options.stopAfter > PipelineStep::Export)
            deploy();
        return std::move(m_result);
    }

private:
    bool validate();
    bool generate();
    bool verify();
    bool exportPackage();
    bool deploy();

    // Starts a step unless the run was cancelled before it (then records it as cancelled).
    bool begin(PipelineStep step, const std::string& message)
    {
        m_step = StepResult{};
        m_step.step = step;
        if (m_options.cancel && m_options.cancel->load())
            return finish(Status::Cancelled, "cancelled");
        m_started = std::chrono::steady_clock::now();
        if (m_options.progress) m_options.progress(step, message);
        return true;
    }
    // Ends the current step; true when it did its work (or found it unchanged).
    bool finish(Status status, std::string message = {})
    {
        m_step.status = status;
        if (!message.empty()) m_step.message = std::move(message);
        m_step.seconds =
            m_started ? std::chrono::duration<double>(std::chrono::steady_clock::now() - *m_started)
                            .count()
                      : 0;
        m_started.reset();
        if (m_options.stepFinished) m_options.stepFinished(m_step);
        m_result.steps.push_back(std::move(m_step));
        return status == Status::Done || status == Status::Unchanged;
    }
    void addDiagnostics(const Diagnostics& more)
    {
        m_step.diagnostics.insert(m_step.diagnostics.end(), more.begin(), more.end());
    }
    bool verifyCases(const OpSpec& judged, const SimRunOptions& sim, const RunnerConfigs& runners,
                     const std::string& verifyKey);

    const Project& m_project;
    const PipelineOptions& m_options;
    PipelineState m_state;
    PipelineResult m_result;
    StepResult m_step;
    std::optional<std::chrono::steady_clock::time_point> m_started; // while a step runs
    ProjectSources m_sources;
    std::string m_inputs; // ProjectSources::inputsDigest
};

bool PipelineRun::validate()
{
    if (!begin(PipelineStep::Validate, "checking op.json, the kernel and the reference"))
        return false;
    m_sources = readProjectSources(m_project);
    if (!m_sources.error.empty()) return finish(Status::Failed, m_sources.error);
    m_step.diagnostics = m_sources.loaded.diagnostics;
    if (!m_sources.usable()) return finish(Status::Failed, "the op description has errors");
    // op.json is validated already: check the other two against its spec.
    const OpSpec& spec = m_sources.loaded.spec;
    addDiagnostics(m_project.checkReference(spec, m_sources.reference, m_options.cancel));
    if (m_options.cancel && m_options.cancel->load()) return finish(Status::Cancelled, "cancelled");
    addDiagnostics(m_project.checkKernel(spec, m_sources.kernel));
    if (hasErrors(m_step.diagnostics))
        return finish(Status::Failed, std::to_string(countErrors(m_step.diagnostics)) + " errors");
    m_inputs = m_sources.inputsDigest();
    return finish(Status::Done, "no errors");
}

bool PipelineRun::generate()
{
    if (!begin(PipelineStep::Generate, "generating the glue")) return false;
    const std::string glueFolder =
        m_options.glueFolder.empty() ? m_project.glueFolder() : m_options.glueFolder;
    if (m_options.glueFolder.empty()) {
        if (std::string error = m_project.linkedFolderError(glueFolder); !error.empty())
            return finish(Status::Failed, error);
        if (m_state.unchanged("generate", m_inputs, folderDigest(glueFolder)))
            return finish(Status::Unchanged, "unchanged since the last run");
    }
    if (std::string error =
            replaceGeneratedFolder(codegen::generateGlue(m_sources.glueSource()), glueFolder);
        !error.empty())
        return finish(Status::Failed, error);
    if (m_options.glueFolder.empty())
        m_state.record("generate", m_inputs, folderDigest(glueFolder));
    return finish(Status::Done, "glue in " + glueFolder);
}

bool PipelineRun::verify()
{
    if (!begin(PipelineStep::Verify, "verifying against " + m_options.against)) return false;
    const OpSpec& spec = m_sources.loaded.spec;
    const ToleranceDefaults tolerances = loadToleranceDefaults(m_project.toleranceConfigFiles());
    m_step.diagnostics = tolerances.diagnostics;
    if (hasErrors(tolerances.diagnostics))
        return finish(Status::Failed, "tolerances.json has errors");
    OpSpec judged = spec; // judged with the user's default tolerances under the op's own
    judged.tolerance = withDefaults(spec.tolerance, tolerances.tolerance);
    SimRunOptions sim = m_options.sim;
    if (sim.platformFile.empty()) {
        std::string ignored;
        for (const std::string& name : std::vector<std::string>{
                 spec.targets.soc.empty() ? "generic" : spec.targets.soc.front(), "generic"})
            if (sim.platformFile.empty()) sim.platformFile = findPlatformFile(name, ignored);
    }
    // What a pass depends on: the files, the target (a runner's command and fields too), the
    // platform and the tolerances.
    const RunnerConfigs runners = loadRunnerConfigs(m_project.runnerConfigFiles());
    std::string target = m_options.against;
    if (const RunnerConfig* runner = runners.find(m_options.against)) {
        for (const std::string& arg : runner->command)
            target += '\0' + arg;
        for (const auto& [key, value] : runner->fields)
            target += '\0' + key + '=' + value;
    }
    // The interpreter too: another Python or torch is another run.
    const std::string verifyKey =
        sha256Hex(m_inputs + target + sim.platformFile + toleranceJson(judged.tolerance) + '\0' +
                  interpreter::choosePython(worker::WorkerClient::chosenPython()));
    // An explicit Verify always runs, so its report can be shown; Redeploy may reuse a pass.
    if (m_options.stopAfter != PipelineStep::Verify && m_state.unchanged("verify", verifyKey))
        return finish(Status::Unchanged, "passed before with the same files");
    // The kernel and the reference run in the chosen interpreter: one message when they cannot.
    if (auto found = interpreter::kernelInterpreter(worker::WorkerClient::chosenPython());
        std::holds_alternative<std::string>(found)) {
        m_step.badRequest = true;
        return finish(Status::Failed, std::get<std::string>(found));
    }
    return verifyCases(judged, sim, runners, verifyKey);
}

// A case that could not run is reported at its line (once), and names the case in the message.
static std::string failureMessage(const VerificationReport& report, Diagnostics& diagnostics)
{
    for (const CaseVerification& c : report.cases)
        for (const Diagnostic& d : c.diagnostics)
            if (std::none_of(diagnostics.begin(), diagnostics.end(), [&](const Diagnostic& e) {
                    return e.file == d.file && e.line == d.line && e.message == d.message;
                }))
                diagnostics.push_back(d);
    const auto failed = std::find_if(report.cases.begin(), report.cases.end(),
                                     [](const CaseVerification& c) { return !c.error.empty(); });
    if (failed == report.cases.end())
        return "the kernel does not match the reference (see " + report.targetRunDir + ")";
    return "error in case '" + failed->caseName +
           "': " + failed->error.substr(0, failed->error.find('\n'));
}

bool PipelineRun::verifyCases(const OpSpec& judged, const SimRunOptions& sim,
                              const RunnerConfigs& runners, const std::string& verifyKey)
{
    const std::string& projectDir = m_project.folder();
    const ProjectTexts texts = m_sources.texts(m_project);
    addDiagnostics(runners.diagnostics);
    if (std::string error = m_project.linkedFolderError(m_project.runsFolder()); !error.empty())
        return finish(Status::Failed, error);
    BackendChoice reference = makeBackend("ref", judged, texts, runners, sim); // its time limit
    BackendChoice target = makeBackend(m_options.against, judged, texts, runners, sim);
    for (const BackendChoice* choice : {&reference, &target}) {
        addDiagnostics(choice->diagnostics);
        if (!choice->backend) {
            m_step.badRequest = choice->diagnostics.empty();
            return finish(Status::Failed, choice->error);
        }
    }
    if (const std::string& only = m_options.caseFilter;
        !only.empty() && std::none_of(judged.cases.begin(), judged.cases.end(),
                                      [&](const CaseSpec& c) { return c.name == only; })) {
        std::vector<std::string> names;
        for (const CaseSpec& c : judged.cases)
            names.push_back(c.name);
        m_step.badRequest = true;
        return finish(Status::Failed, "no case named '" + only + "'" + didYouMean(only, names) +
                                          " (cases: " + joinQuoted(names) + ")");
    }
    RunOptions run;
    run.cancel = m_options.cancel;
    run.caseFilter = m_options.caseFilter;
    // verify() counts the reference's pass and the target's: say which one runs.
    run.progress = [this](int done, int total, const std::string& caseName) {
        if (!m_options.progress || caseName.empty()) return;
        const int cases = std::max(1, total / 2);
        const std::string who = done >= cases ? m_options.against : std::string("the reference");
        m_options.progress(PipelineStep::Verify, "case " + caseName + " on " + who + " (" +
                                                     std::to_string(done % cases + 1) + "/" +
                                                     std::to_string(cases) + ")");
    };
    VerificationReport& report = m_result.verification;
    report = ptowb::verify(judged, projectDir, *reference.backend, *target.backend,
                           m_project.runsFolder(), run);
    // Each verify leaves two run folders (with captured intermediates): keep the recent ones.
    runfolder::pruneRuns(m_project.runsFolder(), kKeptRuns);
    if (!report.cases.empty()) {
        const std::string trace = runfolder::tracePath(
            runfolder::caseDir(report.targetRunDir, report.cases.front().caseName));
        if (std::error_code ec; fs::exists(trace, ec)) m_result.tracePath = trace;
    }
    if (report.cancelled || (m_options.cancel && m_options.cancel->load()))
        return finish(Status::Cancelled, "cancelled");
    // Say which interpreter ran the kernel and the reference.
    const nlohmann::json who = worker::WorkerClient::shared().interpreter();
    const std::string ranIn = who.is_object() && who.contains("description")
                                  ? " (in " + who["description"].get<std::string>() + ")"
                                  : std::string();
    if (report.pass() && !target.backend->producesValues())
        return finish(Status::Done, "every case ran; " + m_options.against +
                                        " produces no values, so nothing was compared");
    if (report.pass()) {
        if (m_options.caseFilter.empty()) // one case passing is no pass of the op
            m_state.record("verify", verifyKey);
        return finish(Status::Done, "every case passes" + ranIn);
    }
    m_state.forget("verify");
    const std::string message = failureMessage(report, m_step.diagnostics) + ranIn;
    const bool exportAnyway =
        m_options.exportFailing && m_options.stopAfter >= PipelineStep::Export;
    finish(Status::Failed, exportAnyway ? message + "; exporting anyway" : message);
    return exportAnyway;
}

bool PipelineRun::exportPackage()
{
    if (!begin(PipelineStep::Export, "exporting the package")) return false;
    const OpSpec& spec = m_sources.loaded.spec;
    const fs::path packagesFolder = m_options.exportFolder.empty()
                                        ? fs::path(m_project.folder()) / "packages"
                                        : fs::path(m_options.exportFolder);
    const std::string packageFolder = (packagesFolder / (spec.name + "-" + spec.version)).string();
    const std::string archive = m_options.archive ? packageFolder + ".tar.gz" : std::string();
    if (m_options.exportFolder.empty())
        if (std::string error = m_project.linkedFolderError(packageFolder); !error.empty())
            return finish(Status::Failed, error);
    // Reused only when the folder and the archive are both intact and hold the package this
    // user last exported to the project's own folder: its manifest (which names every file's
    // hash) is the one recorded then.
    if (m_options.exportFolder.empty() && m_options.archive &&
        m_state.unchanged("export", m_inputs, manifestDigest(packageFolder)) &&
        checkDeployable(packageFolder, archive).empty()) {
        m_result.packageFolder = packageFolder;
        m_result.archivePath = archive;
        return finish(Status::Unchanged, "the package is up to date");
    }
    ExportOptions exportOptions;
    exportOptions.outputFolder = m_options.exportFolder;
    exportOptions.archive = m_options.archive;
    exportOptions.cancel = m_options.cancel;
    const ExportResult exported = ptowb::exportPackage(m_project, exportOptions);
    m_step.diagnostics = exported.diagnostics;
    if (!exported.ok())
        return finish(exported.error == "cancelled" ? Status::Cancelled : Status::Failed,
                      exported.error);
    m_result.packageFolder = exported.packageFolder;
    m_result.archivePath = exported.archivePath;
    if (m_options.exportFolder.empty() && m_options.archive)
        m_state.record("export", m_inputs, manifestDigest(exported.packageFolder));
    return finish(Status::Done, "package in " + exported.packageFolder);
}

bool PipelineRun::deploy()
{
    if (!begin(PipelineStep::Deploy, "deploying")) return false;
    const DeployTargets targets = loadDeployTargets(m_project.deployConfigFiles());
    m_step.diagnostics = targets.diagnostics;
    if (hasErrors(targets.diagnostics)) return finish(Status::Failed, "deploy.json has errors");
    const DeployTarget* target = nullptr;
    if (!m_options.deployTarget.empty()) {
        target = targets.find(m_options.deployTarget);
        if (!target) {
            m_step.badRequest = true;
            return finish(Status::Failed,
                          "no deploy target named '" + m_options.deployTarget + "' in deploy.json");
        }
    } else if (targets.targets.size() == 1) {
        target = &targets.targets.front();
    }
    if (!target)
        return finish(Status::NotRun,
                      targets.targets.empty()
                          ? "no deploy target configured (Settings ▸ Deploy targets, or "
                            "deploy.json): stopped after export"
                          : "several deploy targets: name one");
    const OpSpec& spec = m_sources.loaded.spec;
    if (std::string error =
            deployPackage(*target, m_result.packageFolder, m_result.archivePath,
                          spec.ns + "::" + spec.name, spec.version, m_options.cancel);
        !error.empty())
        return finish(error == "cancelled" ? Status::Cancelled : Status::Failed, error);
    return finish(Status::Done, "deployed to " + target->name);
}

} // namespace

const char* stepName(PipelineStep step)
{
    switch (step) {
    case PipelineStep::Validate:
        return "validate";
    case PipelineStep::Generate:
        return "generate";
    case PipelineStep::Verify:
        return "verify";
    case PipelineStep::Export:
        return "export";
    case PipelineStep::Deploy:
        return "deploy";
    }
    return "?";
}

const char* statusName(StepResult::Status status)
{
    switch (status) {
    case Status::Done:
        return "done";
    case Status::Unchanged:
        return "unchanged";
    case Status::Failed:
        return "FAILED";
    case Status::Cancelled:
        return "cancelled";
    case Status::NotRun:
        return "not run";
    }
    return "?";
}

std::string stepSummary(const StepResult& step)
{
    return std::string(stepName(step.step)) + ": " + statusName(step.status) + " (" +
           formatDuration(step.seconds) + ") " + step.message;
}

bool PipelineResult::ok() const
{
    for (const auto& s : steps)
        if (s.status == Status::Failed || s.status == Status::Cancelled) return false;
    return !steps.empty();
}

PipelineResult runPipeline(const Project& project, const PipelineOptions& options)
{
    return PipelineRun(project, options).run();
}

} // namespace ptowb
