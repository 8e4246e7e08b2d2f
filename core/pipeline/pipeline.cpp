#include "pipeline/pipeline.h"

#include "codegen/glue_generation.h"
#include "codegen/project_glue.h"
#include "diag/suggest.h"
#include "io/sha256.h"
#include "package/package_check.h"
#include "package/package_export.h"
#include "pipeline/deploy_target.h"
#include "project/atomic_file.h"
#include "run/platforms.h"
#include "run/run_folder.h"
#include "run/tolerance_defaults.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <algorithm>
#include <nlohmann/json.hpp>

namespace ptowb {

namespace {

constexpr std::size_t kKeptRuns = 20; // run folders a project keeps: the last ten verifies

// What earlier runs left in <project>/.ptowb/pipeline.json: the input hash each step last
// succeeded with.
class PipelineState
{
public:
    explicit PipelineState(const Project& project)
        : m_path(QDir(project.folder()).filePath(QStringLiteral(".ptowb/pipeline.json")))
    {
        QByteArray text;
        QString error;
        if (readTextFile(m_path, text, error)) {
            m_state = nlohmann::json::parse(text.toStdString(), nullptr, false);
            if (!m_state.is_object()) m_state = nlohmann::json::object();
        }
    }
    bool unchanged(const char* step, const std::string& hash) const
    {
        return m_state.value(step, "") == hash;
    }
    void record(const char* step, const std::string& hash)
    {
        m_state[step] = hash;
        QDir().mkpath(QFileInfo(m_path).absolutePath());
        writeFileAtomically(m_path, QByteArray::fromStdString(m_state.dump(2)));
    }
    void forget(const char* step)
    {
        m_state.erase(step);
        writeFileAtomically(m_path, QByteArray::fromStdString(m_state.dump(2)));
    }

private:
    QString m_path;
    nlohmann::json m_state = nlohmann::json::object();
};

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

bool PipelineResult::ok() const
{
    for (const auto& s : steps)
        if (s.status == StepResult::Status::Failed || s.status == StepResult::Status::Cancelled)
            return false;
    return !steps.empty();
}

PipelineResult runPipeline(const Project& project, const PipelineOptions& options)
{
    PipelineResult result;
    PipelineState state(project);
    QElapsedTimer timer;
    auto begin = [&](PipelineStep step, const std::string& message) {
        timer.start();
        if (options.progress) options.progress(step, message);
        StepResult r;
        r.step = step;
        return r;
    };
    auto finish = [&](StepResult r, StepResult::Status status, std::string message = {}) {
        r.status = status;
        if (!message.empty()) r.message = std::move(message);
        r.seconds = double(timer.nsecsElapsed()) / 1e9;
        result.steps.push_back(std::move(r));
        return status == StepResult::Status::Done || status == StepResult::Status::Unchanged;
    };
    auto cancelled = [&](PipelineStep step) {
        if (!options.cancel || !options.cancel->load()) return false;
        StepResult r;
        r.step = step;
        finish(r, StepResult::Status::Cancelled, "cancelled");
        return true;
    };

    // validate
    StepResult step =
        begin(PipelineStep::Validate, "checking op.json, the kernel and the reference");
    const codegen::ProjectSources sources = codegen::readProjectSources(project);
    if (!sources.error.isEmpty())
        return finish(step, StepResult::Status::Failed, sources.error.toStdString()), result;
    if (!sources.usable()) {
        step.diagnostics = sources.loaded.diagnostics;
        return finish(step, StepResult::Status::Failed, "the op description has errors"), result;
    }
    // op.json is validated already: check the other two against its spec.
    step.diagnostics = sources.loaded.diagnostics;
    for (const Diagnostics& more :
         {project.checkReference(sources.loaded.spec, QByteArray::fromStdString(sources.reference)),
          project.checkKernel(sources.loaded.spec, QByteArray::fromStdString(sources.kernel))})
        step.diagnostics.insert(step.diagnostics.end(), more.begin(), more.end());
    if (hasErrors(step.diagnostics))
        return finish(step, StepResult::Status::Failed,
                      std::to_string(countErrors(step.diagnostics)) + " errors"),
               result;
    finish(step, StepResult::Status::Done, "no errors");
    const std::string inputs =
        sha256Hex(sources.opJson + '\0' + sources.kernel + '\0' + sources.reference);
    const OpSpec& spec = sources.loaded.spec;

    // generate
    if (cancelled(PipelineStep::Generate)) return result;
    step = begin(PipelineStep::Generate, "generating the glue");
    const QString glueFolder =
        options.glueFolder.isEmpty() ? project.glueFolder() : options.glueFolder;
    if (options.glueFolder.isEmpty() && state.unchanged("generate", inputs) &&
        QFileInfo::exists(glueFolder)) {
        finish(step, StepResult::Status::Unchanged, "unchanged since the last run");
    } else {
        if (QString error = codegen::replaceGeneratedFolder(
                codegen::generateGlue(sources.glueSource()), glueFolder);
            !error.isEmpty())
            return finish(step, StepResult::Status::Failed, error.toStdString()), result;
        state.record("generate", inputs);
        finish(step, StepResult::Status::Done, "glue in " + glueFolder.toStdString());
    }
    if (options.stopAfter == PipelineStep::Generate) return result;

    // verify
    if (cancelled(PipelineStep::Verify)) return result;
    step = begin(PipelineStep::Verify, "verifying against " + options.against);
    SimRunOptions sim = options.sim;
    if (sim.platformFile.empty()) {
        std::string ignored;
        for (const std::string& name : std::vector<std::string>{
                 spec.targets.soc.empty() ? "generic" : spec.targets.soc.front(), "generic"})
            if (sim.platformFile.empty()) sim.platformFile = findPlatformFile(name, ignored);
    }
    const ToleranceDefaults tolerances = loadToleranceDefaults(project.toleranceConfigFiles());
    step.diagnostics = tolerances.diagnostics;
    if (hasErrors(tolerances.diagnostics))
        return finish(step, StepResult::Status::Failed, "tolerances.json has errors"), result;
    OpSpec judged = spec; // judged with the user's default tolerances under the op's own
    judged.tolerance = withDefaults(spec.tolerance, tolerances.tolerance);
    const std::string verifyKey =
        sha256Hex(inputs + options.against + sim.platformFile + toleranceJson(judged.tolerance));
    // An explicit Verify always runs, so its report can be shown; Redeploy may reuse a pass.
    if (options.stopAfter != PipelineStep::Verify && state.unchanged("verify", verifyKey)) {
        finish(step, StepResult::Status::Unchanged, "passed before with the same files");
    } else {
        const std::string projectDir = project.folder().toStdString();
        const RunnerConfigs runners = loadRunnerConfigs(project.runnerConfigFiles());
        step.diagnostics.insert(step.diagnostics.end(), runners.diagnostics.begin(),
                                runners.diagnostics.end());
        BackendChoice reference = makeBackend("ref", judged, projectDir, runners);
        BackendChoice target = makeBackend(options.against, judged, projectDir, runners, sim);
        for (const BackendChoice* choice : {&reference, &target}) {
            step.diagnostics.insert(step.diagnostics.end(), choice->diagnostics.begin(),
                                    choice->diagnostics.end());
            if (!choice->backend) {
                step.badRequest = choice->diagnostics.empty();
                return finish(step, StepResult::Status::Failed, choice->error), result;
            }
        }
        if (!options.caseFilter.empty() &&
            std::none_of(spec.cases.begin(), spec.cases.end(),
                         [&](const CaseSpec& c) { return c.name == options.caseFilter; })) {
            std::vector<std::string> names;
            for (const CaseSpec& c : spec.cases)
                names.push_back(c.name);
            step.badRequest = true;
            return finish(step, StepResult::Status::Failed,
                          "no case named '" + options.caseFilter + "'" +
                              didYouMean(options.caseFilter, names) +
                              " (cases: " + joinQuoted(names) + ")"),
                   result;
        }
        RunOptions run;
        run.cancel = options.cancel;
        run.caseFilter = options.caseFilter;
        // verify() counts the reference's pass and the target's: say which one runs.
        run.progress = [&](int done, int total, const std::string& caseName) {
            if (!options.progress || caseName.empty()) return;
            const int cases = std::max(1, total / 2);
            const std::string who = done >= cases ? options.against : std::string("the reference");
            options.progress(PipelineStep::Verify, "case " + caseName + " on " + who + " (" +
                                                       std::to_string(done % cases + 1) + "/" +
                                                       std::to_string(cases) + ")");
        };
        result.verification = verify(judged, projectDir, *reference.backend, *target.backend,
                                     project.runsFolder().toStdString(), run);
        // Each verify leaves two run folders (with captured intermediates): keep the recent ones.
        runfolder::pruneRuns(project.runsFolder().toStdString(), kKeptRuns);
        if (!result.verification.cases.empty()) {
            const QString trace = QString::fromStdString(
                runfolder::caseDir(result.verification.targetRunDir,
                                   result.verification.cases.front().caseName) +
                "/trace.json");
            if (QFileInfo::exists(trace)) result.tracePath = trace;
        }
        if (result.verification.cancelled || (options.cancel && options.cancel->load()))
            return finish(step, StepResult::Status::Cancelled, "cancelled"), result;
        if (!result.verification.pass()) {
            state.forget("verify");
            // A case that could not run is an error at its line, not a mismatch.
            std::string message = "the kernel does not match the reference (see " +
                                  result.verification.targetRunDir + ")";
            for (const CaseVerification& c : result.verification.cases) {
                for (const Diagnostic& d : c.diagnostics)
                    if (std::find_if(step.diagnostics.begin(), step.diagnostics.end(),
                                     [&](const Diagnostic& e) {
                                         return e.file == d.file && e.line == d.line &&
                                                e.message == d.message;
                                     }) == step.diagnostics.end())
                        step.diagnostics.push_back(d);
            }
            if (auto failed =
                    std::find_if(result.verification.cases.begin(), result.verification.cases.end(),
                                 [](const CaseVerification& c) { return !c.error.empty(); });
                failed != result.verification.cases.end())
                message = "error in case '" + failed->caseName +
                          "': " + failed->error.substr(0, failed->error.find('\n'));
            const bool exportAnyway =
                options.exportFailing && options.stopAfter >= PipelineStep::Export;
            finish(step, StepResult::Status::Failed,
                   exportAnyway ? message + "; exporting anyway" : message);
            if (!exportAnyway) return result;
        } else {
            state.record("verify", verifyKey);
            finish(step, StepResult::Status::Done, "every case passes");
        }
    }

    // export
    if (options.stopAfter < PipelineStep::Export || cancelled(PipelineStep::Export)) return result;
    step = begin(PipelineStep::Export, "exporting the package");
    const QString packagesFolder = options.exportFolder.isEmpty()
                                       ? QDir(project.folder()).filePath(QStringLiteral("packages"))
                                       : options.exportFolder;
    const QString packageFolder =
        QDir(packagesFolder).filePath(QString::fromStdString(spec.name + "-" + spec.version));
    const QString archive = options.archive ? packageFolder + QStringLiteral(".tar.gz") : QString();
    // Reused only when the folder and the archive are both intact and hold the same package
    // exported to the project's own folder.
    if (options.exportFolder.isEmpty() && options.archive && state.unchanged("export", inputs) &&
        checkDeployable(packageFolder, archive).isEmpty()) {
        result.packageFolder = packageFolder;
        result.archivePath = archive;
        finish(step, StepResult::Status::Unchanged, "the package is up to date");
    } else {
        ExportOptions exportOptions;
        exportOptions.outputFolder = options.exportFolder;
        exportOptions.archive = options.archive;
        exportOptions.cancel = options.cancel;
        const ExportResult exported = exportPackage(project, exportOptions);
        step.diagnostics = exported.diagnostics;
        if (!exported.ok())
            return finish(step,
                          exported.error == QLatin1String("cancelled")
                              ? StepResult::Status::Cancelled
                              : StepResult::Status::Failed,
                          exported.error.toStdString()),
                   result;
        result.packageFolder = exported.packageFolder;
        result.archivePath = exported.archivePath;
        state.record("export", inputs);
        finish(step, StepResult::Status::Done,
               "package in " + exported.packageFolder.toStdString());
    }

    // deploy
    if (options.stopAfter < PipelineStep::Deploy || cancelled(PipelineStep::Deploy)) return result;
    step = begin(PipelineStep::Deploy, "deploying");
    const DeployTargets targets = loadDeployTargets(project.deployConfigFiles());
    step.diagnostics = targets.diagnostics;
    if (hasErrors(targets.diagnostics))
        return finish(step, StepResult::Status::Failed, "deploy.json has errors"), result;
    const DeployTarget* target = nullptr;
    if (!options.deployTarget.empty()) {
        target = targets.find(options.deployTarget);
        if (!target) {
            step.badRequest = true;
            return finish(step, StepResult::Status::Failed,
                          "no deploy target named '" + options.deployTarget + "' in deploy.json"),
                   result;
        }
    } else if (targets.targets.size() == 1) {
        target = &targets.targets.front();
    }
    if (!target) {
        finish(step, StepResult::Status::NotRun,
               targets.targets.empty() ? "no deploy target configured: stopped after export"
                                       : "several deploy targets: name one");
        return result;
    }
    if (QString error = deployPackage(*target, result.packageFolder, result.archivePath,
                                      spec.ns + "::" + spec.name, spec.version, options.cancel);
        !error.isEmpty())
        return finish(step,
                      error == QLatin1String("cancelled") ? StepResult::Status::Cancelled
                                                          : StepResult::Status::Failed,
                      error.toStdString()),
               result;
    finish(step, StepResult::Status::Done, "deployed to " + target->name);
    return result;
}

} // namespace ptowb
