// Packages that cannot lie. Regressions: export without --archive left the previous .tar.gz
// beside the new folder; a replaced archive was deployed; check-package could not check an
// archive; manifest paths were not confined (/etc/passwd hashed, /dev/zero read without bound);
// a relative package path reported every file as extra; a symlinked kernel or fill file out of
// the project was published; hidden staging folders stayed; folder deploys got mode 0700.
// And a kill -9 loop: whenever export dies, the package on disk (folder and archive) is valid.
#include "package/package_check.h"
#include "package/package_export.h"
#include "package/package_identity.h"
#include "pipeline/deploy_target.h"

#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <functional>
#include <nlohmann/json.hpp>
#include <sys/stat.h>

using namespace ptowb;

namespace {

void copySample(const QString& to)
{
    const QDir from(QStringLiteral(PTOWB_SOURCE_DIR "/projects/scale_gelu"));
    QDir().mkpath(to);
    for (const QString& f : from.entryList(QDir::Files))
        QFile::copy(from.filePath(f), QDir(to).filePath(f));
}

Project openProject(const QString& folder)
{
    std::string error;
    auto project = Project::open(folder.toStdString(), error);
    if (!project) qFatal("%s", error.c_str());
    return *project;
}

// An export as these tests look at it: its paths as QString.
struct Exported
{
    bool succeeded = false;
    QString error, packageFolder, archivePath;
    bool ok() const { return succeeded; }
};

Exported asExported(const ExportResult& result)
{
    return {result.ok(), QString::fromStdString(result.error),
            QString::fromStdString(result.packageFolder),
            QString::fromStdString(result.archivePath)};
}

// The tests name files with QString; the package layer takes UTF-8 paths.
PackageCheck checkPackage(const QString& path)
{
    return ptowb::checkPackage(path.toStdString());
}

QString checkDeployable(const QString& folder, const QString& archive)
{
    return QString::fromStdString(
        ptowb::checkDeployable(folder.toStdString(), archive.toStdString()));
}

QString deployPackage(const DeployTarget& target, const QString& folder, const QString& archive)
{
    return QString::fromStdString(ptowb::deployPackage(
        target, folder.toStdString(), archive.toStdString(), "pto::scale_gelu", "1.0.0", nullptr));
}

QString joined(const std::vector<std::string>& lines)
{
    QStringList out;
    for (const std::string& line : lines)
        out << QString::fromStdString(line);
    return out.join(QLatin1Char('\n'));
}

QStringList entries(const QString& folder)
{
    return QDir(folder).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden,
                                  QDir::Name);
}

int tar(const QStringList& args, const QString& dir)
{
    QProcess p;
    p.setWorkingDirectory(dir);
    p.start(QStringLiteral("tar"), args);
    return p.waitForFinished(60000) ? p.exitCode() : -1;
}

void writeFile(const QString& path, const QByteArray& data)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        qFatal("cannot write %s", qPrintable(path));
    f.write(data);
}

} // namespace

class TestPackageCheck : public QObject
{
    Q_OBJECT

    QTemporaryDir m_work;
    QString m_project;

    Exported exportTo(const QString& out, bool archive, bool goldens = false)
    {
        ExportOptions options;
        options.outputFolder = out.toStdString();
        options.archive = archive;
        options.goldens = goldens;
        return asExported(exportPackage(openProject(m_project), options));
    }

    // Runs ptowb-cli with `args` 16 times, each time with another kernel (so nothing left from
    // an earlier run passes for this one), killing it with SIGKILL from 10% to 115% of `runMs`
    // in steps of 7%; `check` looks at the disk after each. Returns how many runs were killed,
    // or -1 when ptowb-cli did not start.
    int killRepeatedly(const QStringList& args, int runMs, const std::function<void()>& check)
    {
        const QString kernelPath = m_project + QStringLiteral("/kernel.py");
        QFile kernelFile(kernelPath);
        if (!kernelFile.open(QIODevice::ReadOnly)) return -1;
        const QByteArray kernel = kernelFile.readAll();
        kernelFile.close();
        int killed = 0;
        for (int k = 0; k < 16 && killed >= 0 && !QTest::currentTestFailed(); ++k) {
            writeFile(kernelPath, kernel + "# run " + QByteArray::number(k) + "\n");
            QProcess cli;
            cli.setStandardOutputFile(QProcess::nullDevice());
            cli.setStandardErrorFile(QProcess::nullDevice());
            cli.start(QStringLiteral(PTOWB_CLI), args);
            if (!cli.waitForStarted()) {
                killed = -1;
                break;
            }
            if (!cli.waitForFinished(runMs * (10 + 7 * k) / 100)) {
                ::kill(pid_t(cli.processId()), SIGKILL);
                ++killed;
            }
            cli.waitForFinished();
            check();
        }
        writeFile(kernelPath, kernel);
        return killed;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_project = m_work.filePath(QStringLiteral("scale_gelu"));
        copySample(m_project);
    }

    void archiveFollowsTheFolder()
    {
        QTemporaryDir out;
        const Exported first = exportTo(out.path(), true);
        QVERIFY2(first.ok(), qPrintable(first.error));
        QCOMPARE(checkDeployable(first.packageFolder, first.archivePath), QString());
        const Exported second = exportTo(out.path(), false);
        QVERIFY(second.ok());
        QCOMPARE(entries(out.path()),
                 QStringList{QStringLiteral(
                     "scale_gelu-1.0.0")}); // the stale archive went with the old folder
        QVERIFY(exportTo(out.path(), true).ok());
        QCOMPARE(entries(out.path()), (QStringList{QStringLiteral("scale_gelu-1.0.0"),
                                                   QStringLiteral("scale_gelu-1.0.0.tar.gz")}));
        QVERIFY(checkPackage(first.archivePath).ok());
    }

    void archivesAreChecked()
    {
        QTemporaryDir out, other;
        const Exported exported = exportTo(out.path(), true);
        QVERIFY(exported.ok());
        QProcess cli;
        cli.start(QStringLiteral(PTOWB_CLI),
                  {QStringLiteral("check-package"), exported.archivePath});
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(cli.readAllStandardOutput()), QStringLiteral("package ok\n"));

        // Unpacked, edited and packed again: the archive no longer matches its manifest.
        QCOMPARE(tar({QStringLiteral("xzf"), exported.archivePath}, other.path()), 0);
        writeFile(other.filePath(QStringLiteral("scale_gelu-1.0.0/kernel/kernel.py")),
                  "import os\n");
        const QString tampered = other.filePath(QStringLiteral("tampered.tar.gz"));
        QCOMPARE(tar({QStringLiteral("czf"), tampered, QStringLiteral("scale_gelu-1.0.0")},
                     other.path()),
                 0);
        QCOMPARE(checkPackage(tampered).changed, std::vector<std::string>{"kernel/kernel.py"});

        // A consistent archive of another package in place of the real one is not deployed.
        QTemporaryDir edited;
        copySample(edited.path());
        {
            QFile k(edited.filePath(QStringLiteral("kernel.py")));
            QVERIFY(k.open(QIODevice::Append));
            k.write("# another kernel\n");
        }
        ExportOptions options;
        options.outputFolder = other.filePath(QStringLiteral("elsewhere")).toStdString();
        options.archive = true;
        options.goldens = false;
        const Exported impostor = asExported(exportPackage(openProject(edited.path()), options));
        QVERIFY(impostor.ok());
        QVERIFY(checkPackage(impostor.archivePath).ok());
        QFile::remove(exported.archivePath);
        QVERIFY(QFile::copy(impostor.archivePath, exported.archivePath));
        QVERIFY(checkDeployable(exported.packageFolder, exported.archivePath)
                    .contains(QStringLiteral("another package")));
        QTemporaryDir deployed;
        DeployTarget target;
        target.name = "folder";
        target.folder = deployed.path().toStdString();
        QVERIFY(deployPackage(target, exported.packageFolder, exported.archivePath)
                    .startsWith(QStringLiteral("not deployed")));
        QVERIFY(entries(deployed.path()).isEmpty());
    }

    void manifestPathsAreConfined()
    {
        QTemporaryDir out;
        const Exported exported = exportTo(out.path(), false);
        QVERIFY(exported.ok());
        const QString manifestPath = exported.packageFolder + QStringLiteral("/manifest.json");
        QFile in(manifestPath);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray manifest = in.readAll();
        in.close();
        writeFile(out.filePath(QStringLiteral("outside.txt")), "secret");
        QVERIFY(::mkfifo(
                    QFile::encodeName(exported.packageFolder + QStringLiteral("/fifo")).constData(),
                    0600) == 0);
        QVERIFY(QFile::link(QStringLiteral("/dev/zero"),
                            exported.packageFolder + QStringLiteral("/zero")));
        QVERIFY(QFile::link(out.filePath(QStringLiteral("outside.txt")),
                            exported.packageFolder + QStringLiteral("/leak")));
        manifest.replace("\"files\": {", "\"files\": {\n    \"../outside.txt\": \"0\",\n    "
                                         "\"/etc/passwd\": \"0\",\n    \"/dev/zero\": \"0\",\n"
                                         "    \"fifo\": \"0\",\n    \"zero\": \"0\",\n    "
                                         "\"leak\": \"0\",\n    \"a//b\": \"0\",");
        writeFile(manifestPath, manifest);
        // Returning at all shows /dev/zero and the FIFO were never read.
        const PackageCheck check = checkPackage(exported.packageFolder);
        QVERIFY(!check.ok());
        const QString unsafe = joined(check.unsafe);
        for (const char* path :
             {"../outside.txt: ", "/etc/passwd: ", "/dev/zero: ", "fifo: not a regular file",
              "zero: a symbolic link", "leak: a symbolic link", "a//b: "})
            QVERIFY2(unsafe.contains(QLatin1String(path)), qPrintable(unsafe));
        QVERIFY(check.changed.empty());
    }

    void relativePackagePath()
    {
        QTemporaryDir out;
        const Exported exported = exportTo(out.path(), false);
        QVERIFY(exported.ok());
        const QString cwd = QDir::currentPath();
        QDir::setCurrent(out.path());
        const PackageCheck check = checkPackage(QStringLiteral("scale_gelu-1.0.0"));
        QDir::setCurrent(cwd);
        QVERIFY2(check.ok(), qPrintable(joined(check.extra) + QString::fromStdString(check.error)));
    }

    void symlinksOutOfTheProjectAreRefused()
    {
        QTemporaryDir project, elsewhere, out;
        copySample(project.path());
        QFile::rename(project.filePath(QStringLiteral("kernel.py")),
                      elsewhere.filePath(QStringLiteral("kernel.py")));
        QVERIFY(QFile::link(elsewhere.filePath(QStringLiteral("kernel.py")),
                            project.filePath(QStringLiteral("kernel.py"))));
        ExportOptions options;
        options.outputFolder = out.path().toStdString();
        options.goldens = false;
        Exported result = asExported(exportPackage(openProject(project.path()), options));
        QVERIFY(!result.ok());
        QVERIFY2(result.error.contains(QStringLiteral("outside the project")),
                 qPrintable(result.error));
        QVERIFY(entries(out.path()).isEmpty());

        // A fill file: op.json names data.npy, a link to a file elsewhere.
        QFile::remove(project.filePath(QStringLiteral("kernel.py")));
        QFile::copy(m_project + QStringLiteral("/kernel.py"),
                    project.filePath(QStringLiteral("kernel.py")));
        QFile op(project.filePath(QStringLiteral("op.json")));
        QVERIFY(op.open(QIODevice::ReadOnly));
        QByteArray json = op.readAll();
        op.close();
        json.replace("\"fill\": \"normal(0, 1)\"", "\"fill\": \"file:data.npy\"");
        writeFile(project.filePath(QStringLiteral("op.json")), json);
        QFile::copy(QStringLiteral(PTOWB_SOURCE_DIR "/projects/scale_gelu/op.json"),
                    elsewhere.filePath(QStringLiteral("data.npy")));
        QVERIFY(QFile::link(elsewhere.filePath(QStringLiteral("data.npy")),
                            project.filePath(QStringLiteral("data.npy"))));
        result = asExported(exportPackage(openProject(project.path()), options));
        QVERIFY2(result.error.contains(QStringLiteral("data.npy")) &&
                     result.error.contains(QStringLiteral("outside the project")),
                 qPrintable(result.error));
    }

    void leftoversAreCleanedOnStart()
    {
        QTemporaryDir out;
        QVERIFY(exportTo(out.path(), true).ok());
        // What a killed export leaves: staging folders and archives, a package moved aside.
        QDir().mkpath(out.filePath(QStringLiteral(".scale_gelu-1.0.0-AbC123/kernel")));
        writeFile(out.filePath(QStringLiteral(".scale_gelu-1.0.0-AbC123.tar.gz")), "partial");
        writeFile(out.filePath(QStringLiteral("scale_gelu-1.0.0.tar.gz.x1Y2z3")), "partial");
        QVERIFY(QDir().rename(out.filePath(QStringLiteral("scale_gelu-1.0.0")),
                              out.filePath(QStringLiteral("scale_gelu-1.0.0.previous"))));
        QDir().mkpath(out.filePath(
            QStringLiteral(".other-2.0.0-AbC123"))); // another package's: not ours to touch
        QVERIFY(exportTo(out.path(), true).ok());
        QCOMPARE(entries(out.path()), (QStringList{QStringLiteral(".other-2.0.0-AbC123"),
                                                   QStringLiteral("scale_gelu-1.0.0"),
                                                   QStringLiteral("scale_gelu-1.0.0.tar.gz")}));
    }

    void deployKeepsNormalPermissions()
    {
        QTemporaryDir out, deployed;
        const Exported exported = exportTo(out.path(), false);
        QVERIFY(exported.ok());
        QCOMPARE(QFileInfo(exported.packageFolder).permissions() & QFileDevice::ExeOther,
                 QFileDevice::ExeOther);
        DeployTarget target;
        target.name = "folder";
        target.folder = deployed.path().toStdString();
        QCOMPARE(deployPackage(target, exported.packageFolder, {}), QString());
        struct stat st
        {
        };
        QVERIFY(::stat(QFile::encodeName(deployed.filePath(QStringLiteral("scale_gelu-1.0.0")))
                           .constData(),
                       &st) == 0);
        QCOMPARE(st.st_mode & 0777, mode_t(0755));
        QCOMPARE(entries(deployed.path()), QStringList{QStringLiteral("scale_gelu-1.0.0")});
    }

    // ptowb-cli export --archive killed at random moments: what is on disk is always a valid
    // package — the previous one or the new one, folder and archive agreeing.
    void killLoopKeepsAValidPackage()
    {
        QTemporaryDir out;
        QVERIFY(exportTo(out.path(), true, true).ok());
        const QString folder = out.filePath(QStringLiteral("scale_gelu-1.0.0"));
        const QStringList args{QStringLiteral("export"), m_project, QStringLiteral("--out"),
                               out.path(), QStringLiteral("--archive")};
        // Kills land anywhere in an export, its last steps (archive, swap) included.
        QElapsedTimer clock;
        clock.start();
        QCOMPARE(QProcess::execute(QStringLiteral(PTOWB_CLI), args), 0);
        const int exportMs = int(clock.elapsed());
        const QString archive = folder + QStringLiteral(".tar.gz");
        const int killed = killRepeatedly(args, exportMs, [&] {
            QCOMPARE(checkDeployable(folder, QFileInfo::exists(archive) ? archive : QString()),
                     QString());
        });
        if (QTest::currentTestFailed()) return; // a check failed inside the loop
        QVERIFY2(killed >= 1, killed < 0 ? "ptowb-cli did not start" : "no export was killed");
        qInfo("%d of 16 exports (%d ms each) killed; the package stayed valid every time", killed,
              exportMs);
        QVERIFY(exportTo(out.path(), true).ok());
        QCOMPARE(entries(out.path()), (QStringList{QStringLiteral("scale_gelu-1.0.0"),
                                                   QStringLiteral("scale_gelu-1.0.0.tar.gz")}));
    }

    // What `inspect --package` compares a model's records with: read only from regular files
    // inside the package, whatever its manifest names.
    void packageIdentityStaysInThePackage()
    {
        QTemporaryDir out;
        QVERIFY(exportTo(out.path(), false).ok());
        const QString folder = out.filePath(QStringLiteral("scale_gelu-1.0.0"));
        auto read = readPackageIdentity(folder.toStdString());
        QVERIFY(std::holds_alternative<onnxtools::PackageIdentity>(read));
        const auto identity = std::get<onnxtools::PackageIdentity>(read);
        QCOMPARE(identity.op, std::string("pto::scale_gelu"));
        QCOMPARE(identity.kernelSha256.size(), std::size_t(64));
        const QString manifestPath = folder + QStringLiteral("/manifest.json");
        QFile manifestFile(manifestPath);
        QVERIFY(manifestFile.open(QIODevice::ReadOnly));
        const auto manifest = nlohmann::json::parse(manifestFile.readAll().toStdString());
        manifestFile.close();
        QVERIFY(QFile::link(QStringLiteral("/"), folder + QStringLiteral("/lib")));
        for (const char* kernelFile : {"../../../../etc/passwd", "/etc/passwd", "lib/etc/passwd",
                                       "", "kernel", "missing.py"}) {
            auto changed = manifest;
            changed["kernel_file"] = kernelFile;
            writeFile(manifestPath, QByteArray::fromStdString(changed.dump()));
            QVERIFY2(std::holds_alternative<std::string>(readPackageIdentity(folder.toStdString())),
                     kernelFile);
        }
        writeFile(manifestPath, QByteArray::fromStdString(manifest.dump()));
        QVERIFY(QFile::remove(folder + QStringLiteral("/op.json")));
        QVERIFY(QFile::link(QStringLiteral("/dev/zero"), folder + QStringLiteral("/op.json")));
        QVERIFY(std::holds_alternative<std::string>(readPackageIdentity(folder.toStdString())));
        writeFile(manifestPath, "[1, 2]");
        QVERIFY(std::holds_alternative<std::string>(readPackageIdentity(folder.toStdString())));
    }

    // kill -9 anywhere in a redeploy (verify, export, the copy into the deploy folder, the swap):
    // the project's package and the deployed one both stay whole. A swap cut short leaves the
    // previous deploy beside the folder, which the next deploy puts back first.
    void killedRedeployKeepsBothPackagesValid()
    {
        QTemporaryDir deployed;
        writeFile(m_project + QStringLiteral("/deploy.json"),
                  QStringLiteral("{\"name\": \"ops\", \"folder\": \"%1\"}")
                      .arg(deployed.path())
                      .toUtf8());
        const QStringList args{QStringLiteral("redeploy"), m_project};
        QElapsedTimer clock;
        clock.start();
        QCOMPARE(QProcess::execute(QStringLiteral(PTOWB_CLI), args), 0);
        const int redeployMs = int(clock.elapsed());
        const QString package = m_project + QStringLiteral("/packages/scale_gelu-1.0.0");
        const QString target = deployed.filePath(QStringLiteral("scale_gelu-1.0.0"));
        QVERIFY(checkPackage(target).ok());
        const QString archive = package + QStringLiteral(".tar.gz");
        // Every redeploy has a new kernel: verify, export and deploy all run again.
        const int killed = killRepeatedly(args, redeployMs, [&] {
            QCOMPARE(checkDeployable(package, QFileInfo::exists(archive) ? archive : QString()),
                     QString());
            const QString whole =
                QFileInfo::exists(target) ? target : target + QStringLiteral(".previous");
            QVERIFY2(checkPackage(whole).ok(), qPrintable(whole));
        });
        if (QTest::currentTestFailed()) return; // a check failed inside the loop
        QVERIFY2(killed >= 1, killed < 0 ? "ptowb-cli did not start" : "no redeploy was killed");
        QCOMPARE(QProcess::execute(QStringLiteral(PTOWB_CLI), args), 0);
        QVERIFY(checkPackage(target).ok());
        QVERIFY(!QFileInfo::exists(target + QStringLiteral(".previous")) ||
                checkPackage(target + QStringLiteral(".previous")).ok());
        QFile::remove(m_project + QStringLiteral("/deploy.json"));
        qInfo("%d of 16 redeploys (%d ms each) killed; both packages stayed valid every time",
              killed, redeployMs);
    }
};

QTEST_GUILESS_MAIN(TestPackageCheck)
#include "tst_package_check.moc"
