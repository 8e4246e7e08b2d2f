// Redeploy: validate -> generate -> verify (against the simulator) -> export -> deploy on a
// copy of a sample, with unchanged steps skipped, a wrong kernel stopping before export,
// cancellation leaving no partial package, and folder and command deploy targets.
#include "package/package_check.h"
#include "pipeline/deploy_target.h"
#include "pipeline/pipeline.h"
#include "run/placeholders.h"
#include "run/runner_config.h"
#include "run/tolerance_defaults.h"
#include "run_folder/run_folder.h"

#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace ptowb;
using Status = StepResult::Status;

namespace {

void copyFolder(const QString& from, const QString& to)
{
    QDirIterator it(from, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString source = it.next();
        const QString rel = QDir(from).relativeFilePath(source);
        if (rel.startsWith(QLatin1String(".ptowb")) || rel.startsWith(QLatin1String("packages")))
            continue;
        QDir().mkpath(QFileInfo(QDir(to).filePath(rel)).absolutePath());
        QFile::copy(source, QDir(to).filePath(rel));
    }
}

void write(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text);
}

QByteArray read(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

std::vector<Status> statuses(const PipelineResult& r)
{
    std::vector<Status> out;
    for (const auto& s : r.steps)
        out.push_back(s.status);
    return out;
}

} // namespace

class TestPipeline : public QObject
{
    Q_OBJECT

    QTemporaryDir m_work;
    QString m_project;
    QString m_deployed;

    Project project()
    {
        std::string error;
        return *Project::open(m_project.toStdString(), error);
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_project = m_work.filePath(QStringLiteral("scale_gelu"));
        m_deployed = m_work.filePath(QStringLiteral("deployed"));
        copyFolder(QStringLiteral(PTOWB_SOURCE_DIR "/projects/scale_gelu"), m_project);
        write(m_project + QStringLiteral("/deploy.json"),
              QStringLiteral("{\"targets\": [{\"name\": \"local\", \"folder\": \"%1\"}]}")
                  .arg(m_deployed)
                  .toUtf8());
    }

    void firstRedeployRunsEveryStep()
    {
        QStringList progress;
        PipelineOptions options;
        options.progress = [&](PipelineStep step, const std::string& message) {
            progress << QString::fromLatin1(stepName(step)) + QStringLiteral(": ") +
                            QString::fromStdString(message);
        };
        const PipelineResult r = runPipeline(project(), options);
        for (const auto& s : r.steps)
            qInfo("%s: %d %s (%.3f s)", stepName(s.step), int(s.status), s.message.c_str(),
                  s.seconds);
        QVERIFY(r.ok());
        QCOMPARE(statuses(r), (std::vector<Status>{Status::Done, Status::Done, Status::Done,
                                                   Status::Done, Status::Done}));
        QVERIFY(progress.size() >= 5);
        QVERIFY(progress.join(QLatin1Char('\n')).contains(QStringLiteral("verify: case small")));
        QVERIFY(checkPackage(r.packageFolder).ok());
        QVERIFY(checkPackage(m_deployed.toStdString() + "/scale_gelu-1.0.0").ok());
    }

    // Every step on a project, a package folder and a deploy folder whose paths are not ASCII:
    // paths cross from the app's QString to core's UTF-8 and back unchanged.
    void nonAsciiPathsThroughEveryStep()
    {
        const QString project = m_work.filePath(QStringLiteral("opérateurs ünïcode/échelle_gelu"));
        const QString deployed = m_work.filePath(QStringLiteral("déployés/日本"));
        copyFolder(QStringLiteral(PTOWB_SOURCE_DIR "/projects/scale_gelu"), project);
        write(project + QStringLiteral("/deploy.json"),
              QStringLiteral("{\"name\": \"ici\", \"folder\": \"%1\"}").arg(deployed).toUtf8());
        std::string error;
        const std::optional<Project> opened = Project::open(project.toStdString(), error);
        QVERIFY2(opened, error.c_str());
        QCOMPARE(QString::fromStdString(opened->folder()), project);
        QCOMPARE(QString::fromStdString(opened->name()), QStringLiteral("échelle_gelu"));
        const PipelineResult r = runPipeline(*opened, {});
        for (const auto& s : r.steps)
            QVERIFY2(s.status == Status::Done, stepSummary(s).c_str());
        QCOMPARE(r.steps.size(), std::size_t(5));
        QCOMPARE(QString::fromStdString(r.packageFolder),
                 project + QStringLiteral("/packages/scale_gelu-1.0.0"));
        QVERIFY(QFileInfo::exists(QString::fromStdString(r.archivePath)));
        QVERIFY(checkPackage(r.packageFolder).ok());
        QVERIFY(checkPackage(r.archivePath).ok());
        QVERIFY(checkPackage(deployed.toStdString() + "/scale_gelu-1.0.0").ok());
        QVERIFY(QFileInfo::exists(project + QStringLiteral("/.ptowb/glue/torch/CMakeLists.txt")));
    }

    void unchangedStepsAreSkipped()
    {
        const PipelineResult r = runPipeline(project(), {});
        QVERIFY(r.ok());
        QCOMPARE(statuses(r),
                 (std::vector<Status>{Status::Done, Status::Unchanged, Status::Unchanged,
                                      Status::Unchanged, Status::Done}));
    }

    // A module the kernel imports is one of its inputs: editing it is a change, so the glue is
    // generated again and the kernel verified again, not taken from the last run.
    void editedModuleIsAChange()
    {
        QTemporaryDir work;
        const QString folder = work.filePath(QStringLiteral("module_kernel"));
        copyFolder(QStringLiteral(PTOWB_SOURCE_DIR "/tests/data/module_kernel"), folder);
        std::string error;
        const Project moduleProject = *Project::open(folder.toStdString(), error);
        PipelineOptions options;
        options.stopAfter = PipelineStep::Generate;
        QVERIFY(runPipeline(moduleProject, options).ok());
        QCOMPARE(statuses(runPipeline(moduleProject, options)),
                 (std::vector<Status>{Status::Done, Status::Unchanged}));
        const QString factors = folder + QStringLiteral("/ops/factors.py");
        write(factors, QByteArray(read(factors)).replace("FACTOR = 2.5", "FACTOR = 3.0"));
        QCOMPARE(statuses(runPipeline(moduleProject, options)),
                 (std::vector<Status>{Status::Done, Status::Done}));
        QVERIFY(read(folder + QStringLiteral("/.ptowb/glue/torch/module_scale_op.cpp"))
                    .contains("FACTOR = 3.0"));
    }

    void wrongKernelStopsBeforeExport()
    {
        const QString kernel = m_project + QStringLiteral("/kernel.py");
        const QByteArray good = read(kernel);
        const QByteArray manifest =
            read(m_project + QStringLiteral("/packages/scale_gelu-1.0.0/manifest.json"));
        QVERIFY(good.contains("g * scale"));
        write(kernel, QByteArray(good).replace("g * scale", "g * scale * 2.0"));
        PipelineResult r = runPipeline(project(), {});
        QVERIFY(!r.ok());
        QCOMPARE(statuses(r), (std::vector<Status>{Status::Done, Status::Done, Status::Failed}));
        QVERIFY(!r.verification.pass());
        QCOMPARE(read(m_project + QStringLiteral("/packages/scale_gelu-1.0.0/manifest.json")),
                 manifest); // the last good package stays

        // Fixing the kernel makes the next redeploy pass and re-export; only kernel.py changed.
        write(kernel, good + "# touched\n");
        QElapsedTimer timer;
        timer.start();
        r = runPipeline(project(), {});
        qInfo("redeploy after a kernel-only change: %lld ms end to end", timer.elapsed());
        QVERIFY(r.ok());
        QCOMPARE(statuses(r), (std::vector<Status>{Status::Done, Status::Done, Status::Done,
                                                   Status::Done, Status::Done}));
        QVERIFY(read(m_deployed + QStringLiteral("/scale_gelu-1.0.0/kernel/kernel.py"))
                    .endsWith("# touched\n"));
    }

    void cancellingMidwayLeavesNoPartialPackage()
    {
        write(m_project + QStringLiteral("/kernel.py"),
              read(m_project + QStringLiteral("/kernel.py")) + "# again\n");
        const QByteArray manifest =
            read(m_project + QStringLiteral("/packages/scale_gelu-1.0.0/manifest.json"));
        std::atomic<bool> cancel{false};
        PipelineOptions options;
        options.cancel = &cancel;
        options.progress = [&](PipelineStep step, const std::string&) {
            if (step == PipelineStep::Export) cancel = true;
        };
        const PipelineResult r = runPipeline(project(), options);
        QVERIFY(!r.ok());
        QCOMPARE(r.steps.back().status, Status::Cancelled);
        QCOMPARE(QDir(m_project + QStringLiteral("/packages"))
                     .entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 (QStringList{QStringLiteral("scale_gelu-1.0.0"),
                              QStringLiteral("scale_gelu-1.0.0.tar.gz")}));
        QCOMPARE(read(m_project + QStringLiteral("/packages/scale_gelu-1.0.0/manifest.json")),
                 manifest);
        QVERIFY(checkPackage(m_project.toStdString() + "/packages/scale_gelu-1.0.0").ok());
    }

    void commandTargets()
    {
        const QString received = m_work.filePath(QStringLiteral("received"));
        QDir().mkpath(received);
        write(m_project + QStringLiteral("/deploy.json"),
              QStringLiteral("[{\"name\": \"copy\", \"command\": [\"cp\", \"{archive}\", "
                             "\"%1/\"]}, {\"name\": \"broken\", \"command\": [\"false\"]},"
                             " {\"name\": \"missing\", \"command\": [\"/nonexistent/deployer\", "
                             "\"{package}\"]}]")
                  .arg(received)
                  .toUtf8());
        PipelineOptions options;
        options.deployTarget = "copy";
        PipelineResult r = runPipeline(project(), options);
        QVERIFY2(r.ok(), r.steps.back().message.c_str());
        QVERIFY(QFileInfo(received + QStringLiteral("/scale_gelu-1.0.0.tar.gz")).size() > 1000);
        options.deployTarget = "broken";
        r = runPipeline(project(), options);
        QCOMPARE(r.steps.back().status, Status::Failed);
        QVERIFY(QString::fromStdString(r.steps.back().message)
                    .contains(QStringLiteral("exited with 1")));
        options.deployTarget = "missing";
        r = runPipeline(project(), options);
        QCOMPARE(r.steps.back().status, Status::Failed);
        options.deployTarget.clear(); // several targets and none named: stop after export
        r = runPipeline(project(), options);
        QVERIFY(r.ok());
        QCOMPARE(r.steps.back().status, Status::NotRun);
    }

    // Runners and deploy targets read their placeholders the same way, and expand them once: a
    // value holding "{op}" (a folder named so) stays as it is.
    void placeholdersExpandOnce()
    {
        QCOMPARE(placeholderNames("{run_dir}/x-{case}{case}"),
                 (std::vector<std::string>{"run_dir", "case", "case"}));
        QVERIFY(placeholderNames("{} {1x} {a-b} plain").empty());
        QCOMPARE(
            expandPlaceholders("{package}/{op}:{other}", {{"package", "/p/{op}"}, {"op", "x"}}),
            std::string("/p/{op}/x:{other}"));
        QCOMPARE(expandPlaceholders("", {{"op", "x"}}), std::string());
        const RunnerConfigs runners = loadRunnerConfigs(std::vector<ConfigText>{
            {"runners.json", R"({"name": "phone", "serial": "S{case}", "command":
                 ["run", "{run_dir}", "--serial", "{serial}", "{case}"]})"}});
        QVERIFY(runners.diagnostics.empty());
        QCOMPARE(
            expandCommand(runners.runners.front(), {{"run_dir", "/r/{serial}"}, {"case", "c"}}),
            (std::vector<std::string>{"run", "/r/{serial}", "--serial", "S{case}", "c"}));
        const RunnerConfigs badField = loadRunnerConfigs(std::vector<ConfigText>{
            {"runners.json", R"({"name": "p", "my-host": "h", "command": ["run"]})"}});
        QVERIFY(!badField.diagnostics.empty() &&
                badField.diagnostics.front().code == "runner.bad-field");
        const RunnerConfigs unknown = loadRunnerConfigs(
            std::vector<ConfigText>{{"runners.json", R"({"name": "p", "command": ["{nope}"]})"}});
        QVERIFY(!unknown.diagnostics.empty() &&
                unknown.diagnostics.front().message.find("{run_dir} {case} {project}") !=
                    std::string::npos);
    }

    void brokenDeployConfig()
    {
        write(m_project + QStringLiteral("/deploy.json"),
              "{\"targets\": [{\"name\": \"x\", \"folder\": \"/tmp\", \"command\": [\"true\"]},\n "
              "{\"name\": \"y\", \"command\": [\"a {nope}\"]}]}");
        const DeployTargets targets = loadDeployTargets(project().deployConfigFiles());
        QCOMPARE(targets.diagnostics.size(), std::size_t(2));
        QCOMPARE(targets.diagnostics[0].message,
                 std::string("a deploy target needs either \"folder\" or \"command\""));
        QCOMPARE(targets.diagnostics[1].line, 2);
        QVERIFY(targets.diagnostics[1].message.find("unknown placeholder {nope}") !=
                std::string::npos);
        const PipelineResult r = runPipeline(project(), {});
        QCOMPARE(r.steps.back().step, PipelineStep::Deploy);
        QCOMPARE(r.steps.back().status, Status::Failed);
        write(m_project + QStringLiteral("/deploy.json"), "{ not json");
        QVERIFY(hasErrors(loadDeployTargets(project().deployConfigFiles()).diagnostics));
        QFile::remove(m_project + QStringLiteral("/deploy.json"));
    }

    void invalidDescriptionStopsAtValidate()
    {
        const QString op = m_project + QStringLiteral("/op.json");
        const QByteArray good = read(op);
        write(op, QByteArray(good).replace("\"x.dtype\"", "\"x.dtyp\""));
        const PipelineResult r = runPipeline(project(), {});
        QCOMPARE(statuses(r), (std::vector<Status>{Status::Failed}));
        QVERIFY(hasErrors(r.steps[0].diagnostics));
        write(op, good);
    }

    // Generate alone, and the tolerance a project's tolerances.json adds under the op's own.
    void generateOnlyAndProjectToleranceDefaults()
    {
        PipelineOptions options;
        options.stopAfter = PipelineStep::Generate;
        const PipelineResult generated = runPipeline(project(), options);
        QVERIFY(generated.ok());
        QCOMPARE(generated.steps.size(), std::size_t(2));
        QVERIFY(QFileInfo::exists(
            QString::fromStdString(project().glueFolder() + "/python/pto_scale_gelu/__init__.py")));
        QVERIFY(QFileInfo::exists(
            QString::fromStdString(project().glueFolder() + "/torch/CMakeLists.txt")));

        const QString tolerances = m_project + QStringLiteral("/tolerances.json");
        write(tolerances, "{ \"min_cosine\": 2 }");
        options.stopAfter = PipelineStep::Verify;
        PipelineResult r = runPipeline(project(), options);
        QCOMPARE(statuses(r),
                 (std::vector<Status>{Status::Done, Status::Unchanged, Status::Failed}));
        QVERIFY(hasErrors(r.steps[2].diagnostics));
        QCOMPARE(QString::fromStdString(r.steps[2].diagnostics[0].file), tolerances);
        QCOMPARE(r.steps[2].diagnostics[0].line, 1);
        // scale_gelu names its criteria and its dtypes' bounds: the op's own tolerance wins.
        write(tolerances, "{ \"criteria\": [\"cosine\"], \"min_cosine\": 0.5, \"bfloat16\": "
                          "{\"rtol\": 0.5, \"atol\": 0.5} }");
        r = runPipeline(project(), options);
        QVERIFY(r.ok());
        QCOMPARE(r.verification.cases.at(0).caseName, std::string("small"));
        QCOMPARE(r.verification.cases.at(0).outputs.at(0).verdict.rule,
                 std::string("allclose(rtol=0.001, atol=0.001)"));
        QFile::remove(tolerances);
    }

    void toleranceDefaultsFiles()
    {
        QTemporaryDir dir;
        auto load = [](const std::string& text) {
            return loadToleranceDefaults(std::vector<ConfigText>{{"t.json", text}});
        };
        ToleranceDefaults d = load("{ \"float16\": {\"rtol\": 0.01, \"atol\": 0.02}, \"criteria\": "
                                   "[\"ratio\"], \"max_error_ratio\": 0.1 }");
        QVERIFY(d.diagnostics.empty());
        QCOMPARE(d.tolerance.perDType.at(DType::Float16).atol, 0.02);
        ToleranceSpec own;
        own.perDType[DType::Float32] = {1e-5, 1e-6};
        const ToleranceSpec merged = withDefaults(own, d.tolerance);
        QCOMPARE(merged.perDType.size(), std::size_t(2));
        QCOMPARE(merged.criteria, std::vector<std::string>{"ratio"});
        QCOMPARE(*merged.maxErrorRatio, 0.1);
        own.criteria = {"allclose"};
        QCOMPARE(withDefaults(own, d.tolerance).criteria, std::vector<std::string>{"allclose"});
        // The text the settings dialog writes reads back the same.
        QCOMPARE(toleranceJson(load(toleranceJson(merged)).tolerance), toleranceJson(merged));
        // Bad input: each is a diagnostic with its position, never an exception.
        for (const char* bad :
             {"", "[1]", "{ \"float16\": 3 }", "{ \"float16\": {\"rtol\": -1, \"atol\": 0} }",
              "{ \"criteria\": [\"close\"] }", "{ \"min_cosine\": \"high\" }",
              "{ \"float16\": {\"rtol\": 1e999, \"atol\": 0} }", "{ \"float16\": {\"rtol\": 0.1"})
            QVERIFY2(hasErrors(load(bad).diagnostics), bad);
        QVERIFY(load("{ \"flaot16\": {} }").diagnostics.at(0).message.find("float16") !=
                std::string::npos);
        QVERIFY(loadToleranceDefaults(std::vector<std::string>{
                                          dir.filePath(QStringLiteral("none.json")).toStdString()})
                    .diagnostics.empty());
    }

    // Only folders named like run ids go, the oldest first.
    void oldRunsArePruned()
    {
        QTemporaryDir dir;
        const QString root = dir.path();
        for (int k = 0; k < 6; ++k) {
            const QString run =
                root + QStringLiteral("/20261130-0000%1-ref").arg(k, 2, 10, QLatin1Char('0'));
            QVERIFY(
                QDir().mkpath(run + QStringLiteral("/case"))); // made in order: modification times
                                                               // ascend (or tie, then names decide)
        }
        QVERIFY(QDir().mkpath(root + QStringLiteral("/notes")));
        QCOMPARE(runfolder::pruneRuns(root.toStdString(), 4), 2);
        QStringList left = QDir(root).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QCOMPARE(left.size(), 5);
        QVERIFY(left.contains(QStringLiteral("notes")));
        QVERIFY(!left.contains(QStringLiteral("20261130-000000-ref")) &&
                !left.contains(QStringLiteral("20261130-000001-ref")));
        QCOMPARE(runfolder::pruneRuns(root.toStdString(), 4), 0);
        QCOMPARE(runfolder::pruneRuns((root + QStringLiteral("/missing")).toStdString(), 0), 0);
    }
};

QTEST_GUILESS_MAIN(TestPipeline)
#include "tst_pipeline.moc"
