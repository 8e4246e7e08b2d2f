// Project folders made to hurt whoever opens them, fed through ptowb-cli as an attacker would
// hand them over: nothing of them runs before it is asked for, nothing outside them changes,
// and nothing they ship makes a failing kernel or a changed package deploy.
#include "digest/sha256.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
    QString all() const { return out + err; }
};

class TestHostileProjects : public QObject
{
    Q_OBJECT

    // The user's own config and cache, in folders of the test's: what the attacks aim at.
    QTemporaryDir m_home;

    Run cli(const QStringList& args, const QString& workingDir = {}, int timeoutMs = 120000)
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("PTOWB_CACHE"), m_home.filePath(QStringLiteral("cache")));
        p.setProcessEnvironment(env);
        if (!workingDir.isEmpty()) p.setWorkingDirectory(workingDir);
        p.start(QStringLiteral(PTOWB_CLI), args);
        if (!p.waitForFinished(timeoutMs)) p.kill();
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }

    static QString copyProject(const QString& from, const QString& to)
    {
        QDir().mkpath(to);
        for (QDirIterator it(from, QDir::Files, QDirIterator::Subdirectories); it.hasNext();) {
            const QString file = it.next();
            const QString target = QDir(to).filePath(QDir(from).relativeFilePath(file));
            QDir().mkpath(QFileInfo(target).absolutePath());
            QFile::copy(file, target);
        }
        return to;
    }
    static QString sample(const char* name)
    {
        return QStringLiteral(PTOWB_SOURCE_DIR "/projects/") + QLatin1String(name);
    }
    static void write(const QString& path, const QByteArray& text)
    {
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text);
    }
    static QByteArray read(const QString& path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    static void replaceIn(const QString& path, const QByteArray& from, const QByteArray& to)
    {
        QByteArray text = read(path);
        QVERIFY2(text.contains(from), qPrintable(path + QStringLiteral(" lacks ") + from));
        write(path, text.replace(from, to));
    }
    // A folder of someone else's, with a file the attack must leave alone.
    static QString victim(const QTemporaryDir& dir, const QString& name)
    {
        const QString folder = dir.filePath(name);
        write(folder + QStringLiteral("/precious.txt"), "keep me\n");
        return folder;
    }
    static bool victimIntact(const QString& folder)
    {
        return read(folder + QStringLiteral("/precious.txt")) == "keep me\n" &&
               QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot) ==
                   QStringList{QStringLiteral("precious.txt")};
    }

private Q_SLOTS:
    // G01: project files named like standard modules never run, even from inside the folder
    // and with kernel lines only Python's own parser judges.
    void projectModulesNeverShadowTheStandardLibrary()
    {
        QTemporaryDir dir;
        const QString project = copyProject(sample("softmax"), dir.filePath(QStringLiteral("p")));
        const QString marker = dir.filePath(QStringLiteral("ran"));
        for (const char* module : {"inspect.py", "re.py", "functools.py", "types.py"})
            write(QDir(project).filePath(QLatin1String(module)),
                  "open(" + QByteArray("'") + marker.toUtf8() + "', 'a').write('" + module +
                      "')\n");
        QByteArray kernel = read(project + QStringLiteral("/kernel.py"));
        kernel +=
            "\nf = lambda a: a\nif (n := 1j):\n    pass\nmatch 1:\n    case 1:\n        pass\n";
        write(project + QStringLiteral("/kernel.py"), kernel);
        const Run validate = cli({QStringLiteral("validate"), QStringLiteral(".")}, project);
        QVERIFY2(!QFile::exists(marker), qPrintable(read(marker) + validate.all()));
        const Run run = cli({QStringLiteral("run"), QStringLiteral("."),
                             QStringLiteral("--backend"), QStringLiteral("sim")},
                            project);
        QVERIFY2(run.exitCode == 0, qPrintable(run.all()));
        QVERIFY2(!QFile::exists(marker), qPrintable(read(marker) + run.all()));
    }

    // G02: a link planted where the workbench keeps its folders loses only itself, or is refused
    // by name; the folder it points at is untouched.
    void linksInTheWorkbenchFoldersAreNeverFollowed()
    {
        QTemporaryDir dir;
        const QString project = copyProject(sample("softmax"), dir.filePath(QStringLiteral("p")));
        QStringList victims;
        for (const char* name : {"glue.new", "glue.old", "glue.previous"}) {
            victims << victim(dir, QStringLiteral("victim-") + QLatin1String(name));
            QDir().mkpath(project + QStringLiteral("/.ptowb"));
            QVERIFY(QFile::link(victims.last(),
                                project + QStringLiteral("/.ptowb/") + QLatin1String(name)));
        }
        for (int k = 0; k < 3; ++k) { // each later generation retires the one before
            const Run generate = cli({QStringLiteral("generate"), project});
            QVERIFY2(generate.exitCode == 0 &&
                         generate.all().contains(QStringLiteral("generate: done")),
                     qPrintable(generate.all()));
            QFile kernel(project + QStringLiteral("/kernel.py"));
            QVERIFY(kernel.open(QIODevice::Append));
            kernel.write("\n"); // another kernel: generated again
        }
        for (const QString& folder : victims)
            QVERIFY2(victimIntact(folder), qPrintable(folder));
        QVERIFY(QFileInfo(project + QStringLiteral("/.ptowb/glue/python")).isDir());

        // The package's folder moved aside, and the package folder itself.
        const QString name = QStringLiteral("softmax-1.0.0");
        const QString previousVictim = victim(dir, QStringLiteral("victim-previous"));
        QDir().mkpath(project + QStringLiteral("/packages"));
        QVERIFY(QFile::link(previousVictim, project + QStringLiteral("/packages/") + name +
                                                QStringLiteral(".previous")));
        const Run exported = cli({QStringLiteral("export"), project});
        QVERIFY2(exported.exitCode == 0, qPrintable(exported.all()));
        QVERIFY(victimIntact(previousVictim));
        const Run again = cli({QStringLiteral("export"), project});
        QVERIFY2(again.exitCode == 0, qPrintable(again.all()));
        QVERIFY(victimIntact(previousVictim));

        const QString packageVictim = victim(dir, QStringLiteral("victim-package"));
        QDir(project + QStringLiteral("/packages")).removeRecursively();
        QDir().mkpath(project + QStringLiteral("/packages"));
        QVERIFY(QFile::link(packageVictim, project + QStringLiteral("/packages/") + name));
        const Run refused = cli({QStringLiteral("export"), project});
        QVERIFY2(refused.exitCode != 0 && refused.all().contains(QStringLiteral("symbolic link")) &&
                     refused.all().contains(name),
                 qPrintable(refused.all()));
        QVERIFY(victimIntact(packageVictim));

        // .ptowb itself: generate and run refuse it by name.
        const QString ptowbVictim = victim(dir, QStringLiteral("victim-ptowb"));
        QDir(project + QStringLiteral("/.ptowb")).removeRecursively();
        QVERIFY(QFile::link(ptowbVictim, project + QStringLiteral("/.ptowb")));
        for (const char* command : {"generate", "run"}) {
            QStringList args{QLatin1String(command), project};
            if (args.first() == QLatin1String("run"))
                args << QStringLiteral("--backend") << QStringLiteral("ref");
            const Run r = cli(args);
            QVERIFY2(r.exitCode != 0 &&
                         r.all().contains(QStringLiteral(".ptowb is a symbolic link")),
                     qPrintable(r.all()));
        }
        QVERIFY(victimIntact(ptowbVictim));
    }

    // G05: op.json's kernel argument class resolves only to a class of the kernel file or of a
    // project module the kernel imports: never builtins reached through another package.
    void kernelArgumentClassesStayInTheProject()
    {
        QTemporaryDir dir;
        const QString project = copyProject(QStringLiteral(PTOWB_TEST_DATA "/config_kernel"),
                                            dir.filePath(QStringLiteral("p")));
        const QString target = dir.filePath(QStringLiteral("clobbered"));
        write(target, "keep me\n");
        const QByteArray original = read(project + QStringLiteral("/op.json"));
        for (const QByteArray& spelled :
             {QByteArray("pypto._ops.builtins.open"),
              QByteArray("NormConfig.__init__.__globals__.__builtins__.open"),
              QByteArray("NormConfig.__init__.__globals__.open")}) {
            QByteArray opJson = original;
            opJson.replace(R"J({ "class": "NormConfig",)J",
                           R"J({ "class": ")J" + spelled + R"J(",)J");
            opJson.replace(
                R"J("fields": { "eps": "eps", "dtype": "x.dtype", "tile_rows": "min(4, x.shape[0])" })J",
                R"J("fields": { "file": "')J" + target.toUtf8() + R"J('", "mode": "'w'" })J");
            write(project + QStringLiteral("/op.json"), opJson);
            const Run run = cli({QStringLiteral("run"), project, QStringLiteral("--backend"),
                                 QStringLiteral("sim")});
            QVERIFY2(run.exitCode != 0 && run.all().contains(QStringLiteral(
                                              "is not a class defined in the kernel file")),
                     qPrintable(spelled + ": " + run.all()));
            QCOMPARE(read(target), QByteArray("keep me\n"));
        }
        // A class of a project module the kernel imports is still found.
        QByteArray kernel = read(project + QStringLiteral("/kernel.py"));
        const qsizetype start = kernel.indexOf("@dataclass\nclass NormConfig:");
        QVERIFY(start >= 0);
        const qsizetype end = kernel.indexOf("\n\n\n", start);
        write(project + QStringLiteral("/norm_config.py"),
              "from dataclasses import dataclass, field\nimport pypto\n\n\n" +
                  kernel.mid(start, end - start) + "\n");
        kernel.replace(start, end - start,
                       "import norm_config\nfrom norm_config import NormConfig");
        write(project + QStringLiteral("/kernel.py"), kernel);
        write(project + QStringLiteral("/op.json"),
              QByteArray(original).replace(R"("class": "NormConfig")",
                                           R"("class": "norm_config.NormConfig")"));
        const Run run = cli(
            {QStringLiteral("run"), project, QStringLiteral("--backend"), QStringLiteral("sim")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.all()));
        // ... and so is one the kernel file reaches only under another name: `from m import C as
        // D` loads m without binding it, and "m.C" names the class in the loaded module.
        kernel.replace("import norm_config\nfrom norm_config import NormConfig",
                       "from norm_config import NormConfig as LoadedConfig");
        kernel.replace("config: NormConfig", "config: LoadedConfig");
        write(project + QStringLiteral("/kernel.py"), kernel);
        const Run aliased = cli(
            {QStringLiteral("run"), project, QStringLiteral("--backend"), QStringLiteral("sim")});
        QVERIFY2(aliased.exitCode == 0, qPrintable(aliased.all()));
        // A module that is loaded but not the project's starts no name.
        write(project + QStringLiteral("/op.json"),
              QByteArray(original).replace(R"("class": "NormConfig")",
                                           R"("class": "dataclasses.NormConfig")"));
        const Run outside = cli(
            {QStringLiteral("run"), project, QStringLiteral("--backend"), QStringLiteral("sim")});
        QVERIFY2(outside.exitCode != 0 &&
                     outside.all().contains(QStringLiteral("the kernel file has no class")),
                 qPrintable(outside.all()));
    }

    // G06: what a project ships in .ptowb is never taken for a step that passed, and a reused
    // package is the one exported, byte for byte.
    void shippedStepRecordsAreNeverTrusted()
    {
        QTemporaryDir dir;
        const QString project = copyProject(sample("softmax"), dir.filePath(QStringLiteral("p")));
        const QString deployed = dir.filePath(QStringLiteral("deployed"));
        write(project + QStringLiteral("/deploy.json"),
              R"({ "name": "local", "folder": ")" + deployed.toUtf8() + R"(" })");
        const Run first = cli({QStringLiteral("redeploy"), project});
        QVERIFY2(first.exitCode == 0, qPrintable(first.all()));
        const Run second = cli({QStringLiteral("redeploy"), project});
        QVERIFY2(second.out.contains(QStringLiteral("export: unchanged")),
                 qPrintable(second.all()));

        // Code added to the package's glue, its manifest made to agree: not "unchanged".
        const QString package = project + QStringLiteral("/packages/softmax-1.0.0");
        QString glue;
        for (QDirIterator it(package, {QStringLiteral("__init__.py")}, QDir::Files,
                             QDirIterator::Subdirectories);
             it.hasNext();)
            glue = it.next();
        QVERIFY(!glue.isEmpty());
        QByteArray text = read(glue) + "\nimport os  # added\n";
        write(glue, text);
        nlohmann::json manifest =
            nlohmann::json::parse(read(package + QStringLiteral("/manifest.json")).toStdString());
        manifest["files"][QDir(package).relativeFilePath(glue).toStdString()] =
            ptowb::sha256Hex(text.toStdString());
        write(package + QStringLiteral("/manifest.json"),
              QByteArray::fromStdString(manifest.dump(2)));
        QFile::remove(package + QStringLiteral(".tar.gz"));
        QProcess tar;
        tar.setWorkingDirectory(project + QStringLiteral("/packages"));
        tar.start(QStringLiteral("tar"),
                  {QStringLiteral("-czf"), QStringLiteral("softmax-1.0.0.tar.gz"),
                   QStringLiteral("softmax-1.0.0")});
        QVERIFY(tar.waitForFinished() && tar.exitCode() == 0);
        const Run third = cli({QStringLiteral("redeploy"), project});
        QVERIFY2(third.exitCode == 0 && third.out.contains(QStringLiteral("export: done")),
                 qPrintable(third.all()));
        for (QDirIterator it(deployed, {QStringLiteral("__init__.py")}, QDir::Files,
                             QDirIterator::Subdirectories);
             it.hasNext();)
            QVERIFY(!read(it.next()).contains("# added"));

        // A failing kernel in a project shipping its own step records: verify runs and fails.
        const QString shipped = copyProject(project, dir.filePath(QStringLiteral("shipped")));
        replaceIn(shipped + QStringLiteral("/kernel.py"), "pypto.exp(", "pypto.sqrt(");
        write(shipped + QStringLiteral("/.ptowb/pipeline.json"),
              read(project + QStringLiteral("/.ptowb/pipeline.json")));
        const Run failing = cli({QStringLiteral("redeploy"), shipped});
        QVERIFY2(failing.exitCode != 0 && failing.out.contains(QStringLiteral("verify: FAILED")),
                 qPrintable(failing.all()));
    }

    // G07: a project's runner or deploy target cannot take over a name the user configured.
    void theUsersOwnRunnerWins()
    {
        QTemporaryDir dir;
        const QString project = copyProject(sample("softmax"), dir.filePath(QStringLiteral("p")));
        const QString userMarker = dir.filePath(QStringLiteral("user-ran"));
        const QString projectMarker = dir.filePath(QStringLiteral("project-ran"));
        write(m_home.filePath(QStringLiteral("config/ptowb/runners.json")),
              R"({ "name": "board", "command": ["/usr/bin/touch", ")" + userMarker.toUtf8() +
                  R"("] })");
        write(project + QStringLiteral("/runners.json"),
              R"({ "name": "board", "command": ["/usr/bin/touch", ")" + projectMarker.toUtf8() +
                  R"("] })");
        const Run run = cli({QStringLiteral("verify"), project, QStringLiteral("--against"),
                             QStringLiteral("board")});
        QFile::remove(m_home.filePath(QStringLiteral("config/ptowb/runners.json")));
        QVERIFY2(QFile::exists(userMarker), qPrintable(run.all()));
        QVERIFY2(!QFile::exists(projectMarker), qPrintable(run.all()));
        QVERIFY2(run.all().contains(QStringLiteral("is also defined in")), qPrintable(run.all()));

        const QString userFolder = dir.filePath(QStringLiteral("user-deploys"));
        const QString projectFolder = victim(dir, QStringLiteral("project-deploys"));
        write(m_home.filePath(QStringLiteral("config/ptowb/deploy.json")),
              R"({ "name": "ops", "folder": ")" + userFolder.toUtf8() + R"(" })");
        write(project + QStringLiteral("/deploy.json"),
              R"({ "name": "ops", "folder": ")" + projectFolder.toUtf8() + R"(" })");
        const Run deploy = cli({QStringLiteral("redeploy"), project});
        QFile::remove(m_home.filePath(QStringLiteral("config/ptowb/deploy.json")));
        QVERIFY2(deploy.exitCode == 0, qPrintable(deploy.all()));
        QVERIFY(QFileInfo(userFolder + QStringLiteral("/softmax-1.0.0")).isDir());
        QVERIFY(victimIntact(projectFolder));
        QVERIFY2(deploy.all().contains(QStringLiteral("is also defined in")),
                 qPrintable(deploy.all()));
    }

    // G12: an archive entry whose holes would expand to far more than it holds is not "ok".
    void sparseArchiveEntriesAreUnsafe()
    {
        QTemporaryDir dir;
        const QString project = copyProject(sample("softmax"), dir.filePath(QStringLiteral("p")));
        const Run exported = cli({QStringLiteral("export"), project});
        QVERIFY2(exported.exitCode == 0, qPrintable(exported.all()));
        const QString package = project + QStringLiteral("/packages/softmax-1.0.0");
        QFile big(package + QStringLiteral("/big.bin"));
        QVERIFY(big.open(QIODevice::WriteOnly));
        QVERIFY(big.resize(qint64(1) << 30)); // all hole
        big.close();
        nlohmann::json manifest =
            nlohmann::json::parse(read(package + QStringLiteral("/manifest.json")).toStdString());
        manifest["files"]["big.bin"] = ptowb::sha256Hex(""); // what the holes would read as
        write(package + QStringLiteral("/manifest.json"),
              QByteArray::fromStdString(manifest.dump(2)));
        const QString archive = dir.filePath(QStringLiteral("sparse.tar.gz"));
        QProcess tar;
        tar.setWorkingDirectory(project + QStringLiteral("/packages"));
        tar.start(QStringLiteral("tar"), {QStringLiteral("--sparse"), QStringLiteral("-czf"),
                                          archive, QStringLiteral("softmax-1.0.0")});
        QVERIFY(tar.waitForFinished(120000) && tar.exitCode() == 0);
        const Run check = cli({QStringLiteral("check-package"), archive});
        QVERIFY2(check.exitCode != 0 && check.all().contains(QStringLiteral("sparse")),
                 qPrintable(check.all()));
    }
};

} // namespace

QTEST_GUILESS_MAIN(TestHostileProjects)
#include "tst_hostile_projects.moc"
