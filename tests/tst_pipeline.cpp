// Redeploy: validate -> generate -> verify (against the simulator) -> export -> deploy on a
// copy of a sample, with unchanged steps skipped, a wrong kernel stopping before export,
// cancellation leaving no partial package, and folder and command deploy targets.
#include "package/package_check.h"
#include "pipeline/deploy_target.h"
#include "pipeline/pipeline.h"

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
        if (rel.startsWith(QLatin1String(".ptowb")) || rel.startsWith(QLatin1String("packages"))) continue;
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
    for (const auto& s : r.steps) out.push_back(s.status);
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
        QString error;
        return *Project::open(m_project, error);
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_project = m_work.filePath(QStringLiteral("scale_gelu"));
        m_deployed = m_work.filePath(QStringLiteral("deployed"));
        copyFolder(QStringLiteral(PTOWB_SOURCE_DIR "/projects/scale_gelu"), m_project);
        write(m_project + QStringLiteral("/deploy.json"), QStringLiteral("{\"targets\": [{\"name\": \"local\", \"folder\": \"%1\"}]}").arg(m_deployed).toUtf8());
    }

    void firstRedeployRunsEveryStep()
    {
        QStringList progress;
        PipelineOptions options;
        options.progress = [&](PipelineStep step, const std::string& message) { progress << QString::fromLatin1(stepName(step)) + QStringLiteral(": ") + QString::fromStdString(message); };
        const PipelineResult r = runPipeline(project(), options);
        for (const auto& s : r.steps) qInfo("%s: %d %s (%.3f s)", stepName(s.step), int(s.status), s.message.c_str(), s.seconds);
        QVERIFY(r.ok());
        QCOMPARE(statuses(r), (std::vector<Status>{Status::Done, Status::Done, Status::Done, Status::Done, Status::Done}));
        QVERIFY(progress.size() >= 5);
        QVERIFY(progress.join(QLatin1Char('\n')).contains(QStringLiteral("verify: case small")));
        QVERIFY(checkPackage(r.packageFolder).ok());
        QVERIFY(checkPackage(m_deployed + QStringLiteral("/scale_gelu-1.0.0")).ok());
    }

    void unchangedStepsAreSkipped()
    {
        const PipelineResult r = runPipeline(project(), {});
        QVERIFY(r.ok());
        QCOMPARE(statuses(r), (std::vector<Status>{Status::Done, Status::Unchanged, Status::Unchanged, Status::Unchanged, Status::Done}));
    }

    void wrongKernelStopsBeforeExport()
    {
        const QString kernel = m_project + QStringLiteral("/kernel.py");
        const QByteArray good = read(kernel);
        const QByteArray manifest = read(m_project + QStringLiteral("/packages/scale_gelu-1.0.0/manifest.json"));
        QVERIFY(good.contains("g * scale"));
        write(kernel, QByteArray(good).replace("g * scale", "g * scale * 2.0"));
        PipelineResult r = runPipeline(project(), {});
        QVERIFY(!r.ok());
        QCOMPARE(statuses(r), (std::vector<Status>{Status::Done, Status::Done, Status::Failed}));
        QVERIFY(!r.verification.pass());
        QCOMPARE(read(m_project + QStringLiteral("/packages/scale_gelu-1.0.0/manifest.json")), manifest); // the last good package stays

        // Fixing the kernel makes the next redeploy pass and re-export; only kernel.py changed.
        write(kernel, good + "# touched\n");
        QElapsedTimer timer;
        timer.start();
        r = runPipeline(project(), {});
        qInfo("redeploy after a kernel-only change: %lld ms end to end", timer.elapsed());
        QVERIFY(r.ok());
        QCOMPARE(statuses(r), (std::vector<Status>{Status::Done, Status::Done, Status::Done, Status::Done, Status::Done}));
        QVERIFY(read(m_deployed + QStringLiteral("/scale_gelu-1.0.0/kernel/kernel.py")).endsWith("# touched\n"));
    }

    void cancellingMidwayLeavesNoPartialPackage()
    {
        write(m_project + QStringLiteral("/kernel.py"), read(m_project + QStringLiteral("/kernel.py")) + "# again\n");
        const QByteArray manifest = read(m_project + QStringLiteral("/packages/scale_gelu-1.0.0/manifest.json"));
        std::atomic<bool> cancel{false};
        PipelineOptions options;
        options.cancel = &cancel;
        options.progress = [&](PipelineStep step, const std::string&) {
            if (step == PipelineStep::Export) cancel = true;
        };
        const PipelineResult r = runPipeline(project(), options);
        QVERIFY(!r.ok());
        QCOMPARE(r.steps.back().status, Status::Cancelled);
        QCOMPARE(QDir(m_project + QStringLiteral("/packages")).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 (QStringList{QStringLiteral("scale_gelu-1.0.0"), QStringLiteral("scale_gelu-1.0.0.tar.gz")}));
        QCOMPARE(read(m_project + QStringLiteral("/packages/scale_gelu-1.0.0/manifest.json")), manifest);
        QVERIFY(checkPackage(m_project + QStringLiteral("/packages/scale_gelu-1.0.0")).ok());
    }

    void commandTargets()
    {
        const QString received = m_work.filePath(QStringLiteral("received"));
        QDir().mkpath(received);
        write(m_project + QStringLiteral("/deploy.json"),
              QStringLiteral("[{\"name\": \"copy\", \"command\": [\"cp\", \"{archive}\", \"%1/\"]}, {\"name\": \"broken\", \"command\": [\"false\"]},"
                             " {\"name\": \"missing\", \"command\": [\"/nonexistent/deployer\", \"{package}\"]}]")
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
        QVERIFY(QString::fromStdString(r.steps.back().message).contains(QStringLiteral("exited with 1")));
        options.deployTarget = "missing";
        r = runPipeline(project(), options);
        QCOMPARE(r.steps.back().status, Status::Failed);
        options.deployTarget.clear(); // several targets and none named: stop after export
        r = runPipeline(project(), options);
        QVERIFY(r.ok());
        QCOMPARE(r.steps.back().status, Status::NotRun);
    }

    void brokenDeployConfig()
    {
        write(m_project + QStringLiteral("/deploy.json"), "{\"targets\": [{\"name\": \"x\", \"folder\": \"/tmp\", \"command\": [\"true\"]},\n {\"name\": \"y\", \"command\": [\"a {nope}\"]}]}");
        const DeployTargets targets = loadDeployTargets(deployConfigFiles(project()));
        QCOMPARE(targets.diagnostics.size(), std::size_t(2));
        QCOMPARE(targets.diagnostics[0].message, std::string("a deploy target needs either \"folder\" or \"command\""));
        QCOMPARE(targets.diagnostics[1].line, 2);
        QVERIFY(targets.diagnostics[1].message.find("unknown placeholder {nope}") != std::string::npos);
        const PipelineResult r = runPipeline(project(), {});
        QCOMPARE(r.steps.back().step, PipelineStep::Deploy);
        QCOMPARE(r.steps.back().status, Status::Failed);
        write(m_project + QStringLiteral("/deploy.json"), "{ not json");
        QVERIFY(hasErrors(loadDeployTargets(deployConfigFiles(project())).diagnostics));
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
};

QTEST_GUILESS_MAIN(TestPipeline)
#include "tst_pipeline.moc"
