// The op package: layout and manifest, reproducible archives, check-package on tampered
// packages, and failures (bad description, unwritable target, cancellation) that leave
// nothing behind and keep the previous package.
#include "digest/sha256.h"
#include "package/package_check.h"
#include "package/package_export.h"

#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <memory>
#include <nlohmann/json.hpp>

using namespace ptowb;

namespace {

void copyFolder(const QString& from, const QString& to)
{
    QDirIterator it(from, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString source = it.next();
        if (source.contains(QStringLiteral("/.ptowb/")) ||
            source.contains(QStringLiteral("/packages/")))
            continue;
        const QString target = QDir(to).filePath(QDir(from).relativeFilePath(source));
        QDir().mkpath(QFileInfo(target).absolutePath());
        QFile::copy(source, target);
    }
}

Project openProject(const QString& folder)
{
    std::string error;
    auto project = Project::open(folder.toStdString(), error);
    if (!project) qFatal("%s", error.c_str());
    return *project;
}

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QStringList entries(const QString& folder)
{
    return QDir(folder).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
}

QStringList filesBelow(const QString& folder)
{
    QStringList files;
    QDirIterator it(folder, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        files << QDir(folder).relativeFilePath(it.next());
    files.sort();
    return files;
}

// tests/glue/check_package_kernel.py: the package's module runs every case (`mode`: sim or
// pypto-sim); with the worker or without it (and without ptowb-cli on PATH).
QString runPackageKernel(const QString& python, const QString& package, const QString& mode,
                         bool withWorker)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (withWorker)
        env.insert(QStringLiteral("PTOWB_KERNEL_WORKER"), QStringLiteral(PTOWB_KERNEL_WORKER));
    else
        env.remove(QStringLiteral("PTOWB_KERNEL_WORKER"));
    env.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
    p.setProcessEnvironment(env);
    p.setProcessChannelMode(QProcess::MergedChannels);
    QTemporaryDir work; // PyPTO writes its output/ folder in the current one
    p.setWorkingDirectory(work.path());
    p.start(python, {QStringLiteral(PTOWB_SOURCE_DIR "/tests/glue/check_package_kernel.py"),
                     package, mode});
    p.waitForFinished(600000);
    return QString::fromUtf8(p.readAll()) + QStringLiteral("\nexit ") +
           QString::number(p.exitCode());
}

} // namespace

class TestPackage : public QObject
{
    Q_OBJECT

    QTemporaryDir m_work;
    QString m_project;
    std::unique_ptr<QTemporaryDir> m_moduleOut;
    QString m_modulePackage; // module_kernel's package, for the run under PyPTO

private Q_SLOTS:
    void initTestCase()
    {
        m_project = m_work.filePath(QStringLiteral("scale_gelu"));
        copyFolder(QStringLiteral(PTOWB_SOURCE_DIR "/projects/scale_gelu"), m_project);
    }

    void layoutAndManifest()
    {
        QTemporaryDir out;
        ExportOptions options;
        options.outputFolder = out.path().toStdString();
        QStringList steps;
        options.progress = [&](const std::string& step) { steps << QString::fromStdString(step); };
        const ExportResult result = exportPackage(openProject(m_project), options);
        QVERIFY2(result.ok(), result.error.c_str());
        const QString packageFolder = QString::fromStdString(result.packageFolder);
        QCOMPARE(packageFolder, out.filePath(QStringLiteral("scale_gelu-1.0.0")));
        QVERIFY(steps.size() >= 4);
        const QDir package(packageFolder);
        for (const char* file :
             {"manifest.json", "op.json", "kernel/kernel.py", "reference/reference.py", "README.md",
              "python/pto_scale_gelu/__init__.py", "torch/CMakeLists.txt", "onnx/CMakeLists.txt",
              "cann/op_info/scale_gelu.ini", "tests/cases.json", "tests/small/inputs/x.npy",
              "tests/small/golden/y.npy", "tests/small/params.json",
              "tests/wide_fp32/golden/y.npy"})
            QVERIFY2(QFileInfo::exists(package.filePath(QString::fromLatin1(file))), file);
        QCOMPARE(readFile(package.filePath(QStringLiteral("kernel/kernel.py"))),
                 readFile(m_project + QStringLiteral("/kernel.py")));
        const auto manifest = nlohmann::json::parse(
            readFile(package.filePath(QStringLiteral("manifest.json"))).toStdString());
        QCOMPARE(manifest["format"].get<std::string>(), std::string(kPackageFormat));
        QCOMPARE(manifest["op_json_sha256"].get<std::string>(),
                 sha256Hex(readFile(m_project + QStringLiteral("/op.json")).toStdString()));
        int files = 0;
        QDirIterator it(packageFolder, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString name = package.relativeFilePath(it.next());
            if (name == QLatin1String("manifest.json")) continue;
            ++files;
            QVERIFY2(manifest["files"].contains(name.toStdString()), qPrintable(name));
        }
        QCOMPARE(int(manifest["files"].size()), files);
        QVERIFY(checkPackage(result.packageFolder).ok());
        // Nothing else was left in the output folder.
        QCOMPARE(entries(out.path()), QStringList{QStringLiteral("scale_gelu-1.0.0")});
    }

    void archiveIsReproducible()
    {
        QTemporaryDir a, b;
        QByteArray first, second;
        for (auto* dir : {&a, &b}) {
            ExportOptions options;
            options.outputFolder = dir->path().toStdString();
            options.archive = true;
            const ExportResult result = exportPackage(openProject(m_project), options);
            QVERIFY2(result.ok(), result.error.c_str());
            (dir == &a ? first : second) = readFile(QString::fromStdString(result.archivePath));
            QTest::qWait(1100); // a different second on the clock must not change the bytes
        }
        QVERIFY(first.size() > 1000);
        QCOMPARE(first, second);
        QCOMPARE(quint8(first[0]), quint8(0x1f));       // gzip ...
        QCOMPARE(first.mid(4, 4), QByteArray(4, '\0')); // ... without a timestamp
    }

    void checkPackageNamesTamperedFiles()
    {
        QTemporaryDir out;
        ExportOptions options;
        options.outputFolder = out.path().toStdString();
        options.goldens = false;
        const ExportResult result = exportPackage(openProject(m_project), options);
        QVERIFY(result.ok());
        const QDir package(QString::fromStdString(result.packageFolder));
        {
            QFile kernel(package.filePath(QStringLiteral("kernel/kernel.py")));
            QVERIFY(kernel.open(QIODevice::Append));
            kernel.write("# edited after export\n");
        }
        QVERIFY(QFile::remove(package.filePath(QStringLiteral("cann/scale_gelu.json"))));
        {
            QFile extra(package.filePath(QStringLiteral("python/notes.txt")));
            QVERIFY(extra.open(QIODevice::WriteOnly));
        }
        const PackageCheck check = checkPackage(result.packageFolder);
        QVERIFY(!check.ok());
        QCOMPARE(check.changed, std::vector<std::string>{"kernel/kernel.py"});
        QCOMPARE(check.missing, std::vector<std::string>{"cann/scale_gelu.json"});
        QCOMPARE(check.extra, std::vector<std::string>{"python/notes.txt"});

        QProcess cli;
        cli.start(QStringLiteral(PTOWB_CLI),
                  {QStringLiteral("check-package"), QString::fromStdString(result.packageFolder)});
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 1);
        const QString text = QString::fromUtf8(cli.readAllStandardOutput());
        QVERIFY(text.contains(QStringLiteral("changed: kernel/kernel.py")) &&
                text.contains(QStringLiteral("missing: cann/scale_gelu.json")));

        QVERIFY(QFile::remove(package.filePath(QStringLiteral("manifest.json"))));
        QVERIFY(!checkPackage(result.packageFolder).error.empty());
        {
            QFile garbage(package.filePath(QStringLiteral("manifest.json")));
            QVERIFY(garbage.open(QIODevice::WriteOnly));
            garbage.write("{\"format\": 3, \"files\": [");
        }
        QVERIFY(!checkPackage(result.packageFolder).error.empty());
    }

    void badDescriptionWritesNothing()
    {
        QTemporaryDir copy, out;
        copyFolder(m_project, copy.path());
        {
            QFile op(copy.filePath(QStringLiteral("op.json")));
            QVERIFY(op.open(QIODevice::WriteOnly));
            op.write("{\"format\": \"ptowb-op/1\", \"name\": \"Bad Name\"}");
        }
        ExportOptions options;
        options.outputFolder = out.path().toStdString();
        const ExportResult result = exportPackage(openProject(copy.path()), options);
        QVERIFY(!result.ok());
        QVERIFY(hasErrors(result.diagnostics));
        QVERIFY(entries(out.path()).isEmpty());
    }

    void unwritableTargetFailsCleanly()
    {
        QTemporaryDir out;
        const QString blocker = out.filePath(QStringLiteral("not-a-folder"));
        {
            QFile f(blocker);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("keep me");
        }
        ExportOptions options;
        options.outputFolder = blocker.toStdString();
        const ExportResult result = exportPackage(openProject(m_project), options);
        QVERIFY(!result.ok());
        QVERIFY(!result.error.empty());
        QCOMPARE(readFile(blocker), QByteArray("keep me"));
        QCOMPARE(entries(out.path()), QStringList{QStringLiteral("not-a-folder")});
    }

    // A kernel of a package, importing a sibling relatively and a module at the project's top
    // (which imports a third): kernel/ holds them at their project paths, nothing it does not
    // import (ops/unused.py, notes.py, reference.py), and the package's module runs the kernel.
    void kernelTakesTheModulesItImports()
    {
        QTemporaryDir work, out;
        const QString project = work.filePath(QStringLiteral("module_kernel"));
        copyFolder(QStringLiteral(PTOWB_SOURCE_DIR "/tests/data/module_kernel"), project);
        ExportOptions options;
        options.outputFolder = out.path().toStdString();
        const ExportResult result = exportPackage(openProject(project), options);
        QVERIFY2(result.ok(), result.error.c_str());
        const QString package = QString::fromStdString(result.packageFolder);
        const QStringList expected{
            QStringLiteral("ops/__init__.py"),   QStringLiteral("ops/factors.py"),
            QStringLiteral("ops/scale_impl.py"), QStringLiteral("tiling/__init__.py"),
            QStringLiteral("tiling/rows.py"),    QStringLiteral("tiling/widths.py")};
        QCOMPARE(filesBelow(package + QStringLiteral("/kernel")), expected);
        for (const QString& file : expected)
            QCOMPARE(readFile(package + QStringLiteral("/kernel/") + file),
                     readFile(project + QLatin1Char('/') + file));
        const auto manifest = nlohmann::json::parse(
            readFile(package + QStringLiteral("/manifest.json")).toStdString());
        QCOMPARE(manifest["kernel_file"].get<std::string>(),
                 std::string("kernel/ops/scale_impl.py"));
        QVERIFY(checkPackage(result.packageFolder).ok());
        QVERIFY(readFile(package + QStringLiteral("/README.md"))
                    .contains("PyPTO compiles `kernel/ops/scale_impl.py`"));
        m_moduleOut.reset(new QTemporaryDir);
        const QString kept = m_moduleOut->filePath(QStringLiteral("package"));
        copyFolder(package, kept);
        m_modulePackage = kept;

        const QString ran =
            runPackageKernel(QStringLiteral(PTOWB_PYTHON), kept, QStringLiteral("sim"), true);
        QVERIFY2(ran.contains(QStringLiteral("4 passed, 0 failed")) &&
                     ran.contains(QStringLiteral("sim backend (ptowb's simulator) equals the "
                                                 "golden: rows_16")),
                 qPrintable(ran));
        // Without a worker Backend('sim') says what it needs, rather than hand back the
        // untouched outputs PyPTO's cost model leaves.
        const QString alone =
            runPackageKernel(QStringLiteral(PTOWB_PYTHON), kept, QStringLiteral("sim"), false);
        QVERIFY2(alone.contains(QStringLiteral("0 passed, 2 failed")) &&
                     alone.contains(QStringLiteral("no kernel worker is found")),
                 qPrintable(alone));
    }

    // The same package as Backend('device') runs it, with PyPI's PyPTO (where a venv with it
    // exists: tests/tools/pypto_venv.sh) and its cost model in place of a device: the module
    // imports the kernel file with its modules and calls it as PyPTO takes its arguments.
    void kernelImportsWorkUnderPyPto()
    {
        if (!QFileInfo::exists(QStringLiteral(PTOWB_PYPTO_PYTHON)))
            QSKIP("no venv with PyPI's pypto (tests/tools/pypto_venv.sh)");
        QVERIFY2(!m_modulePackage.isEmpty(), "kernelTakesTheModulesItImports made no package");
        const QString ran = runPackageKernel(QStringLiteral(PTOWB_PYPTO_PYTHON), m_modulePackage,
                                             QStringLiteral("pypto-sim"), false);
        QVERIFY2(ran.contains(QStringLiteral("2 passed, 0 failed")), qPrintable(ran));
    }

    void cancellationKeepsThePreviousPackage()
    {
        QTemporaryDir out;
        ExportOptions options;
        options.outputFolder = out.path().toStdString();
        options.goldens = false;
        const ExportResult first = exportPackage(openProject(m_project), options);
        QVERIFY(first.ok());
        const QString manifestPath = QString::fromStdString(first.packageFolder + "/manifest.json");
        const QByteArray manifest = readFile(manifestPath);

        std::atomic<bool> cancel{false};
        options.goldens = true;
        options.cancel = &cancel;
        options.progress = [&](const std::string& step) {
            if (step.find("golden") != std::string::npos) cancel = true; // cancel midway
        };
        const ExportResult second = exportPackage(openProject(m_project), options);
        QVERIFY(!second.ok());
        QCOMPARE(second.error, std::string("cancelled"));
        QCOMPARE(entries(out.path()),
                 QStringList{QStringLiteral("scale_gelu-1.0.0")}); // no staging folder left
        QCOMPARE(readFile(manifestPath), manifest);
        QVERIFY(checkPackage(first.packageFolder).ok());
    }
};

QTEST_GUILESS_MAIN(TestPackage)
#include "tst_package.moc"
