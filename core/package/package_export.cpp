#include "package/package_export.h"

#include "digest/sha256.h"
#include "io/remove_tree.h"
#include "package/package_archive.h"
#include "project/atomic_file.h"
#include "project/project_sources.h"
#include "run/verification.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QTemporaryDir>
#include <cstdio>
#include <fcntl.h>
#include <nlohmann/json.hpp>

namespace ptowb {

namespace {

bool cancelled(const ExportOptions& options)
{
    return options.cancel && options.cancel->load();
}

QString baseName(const std::string& relativePath)
{
    return QFileInfo(QString::fromStdString(relativePath)).fileName();
}

// Runs the reference on every case and copies inputs, parameters and outputs into tests/.
QString writeGoldens(const ProjectTexts& texts, const OpSpec& spec, const QDir& package,
                     const ExportOptions& options)
{
    BackendChoice choice = makeBackend("ref", spec, texts, {});
    if (!choice.backend) {
        QString why = QString::fromStdString(choice.error);
        for (const Diagnostic& d : choice.diagnostics)
            why += QString::fromStdString(formatDiagnostic(d)) + QLatin1Char('\n');
        return QStringLiteral("the reference cannot run: %1").arg(why.trimmed());
    }
    QTemporaryDir runDir;
    if (!runDir.isValid())
        return QStringLiteral("cannot create a temporary folder: %1").arg(runDir.errorString());
    RunOptions run;
    run.runDir = runDir.path().toStdString();
    run.cancel = options.cancel;
    const std::vector<CaseRun> runs = runCases(spec, texts.dir, *choice.backend, run);
    if (cancelled(options)) return QStringLiteral("cancelled");
    nlohmann::ordered_json cases = nlohmann::ordered_json::array();
    for (const CaseRun& r : runs) {
        if (r.record.status != "ok")
            return QStringLiteral("case '%1': %2")
                .arg(QString::fromStdString(r.caseName), QString::fromStdString(r.record.error));
        const QString target = QStringLiteral("tests/%1").arg(QString::fromStdString(r.caseName));
        nlohmann::ordered_json entry{{"name", r.caseName}};
        const QDir source(QString::fromStdString(r.dir));
        auto copy = [&](const QString& from, const QString& to) {
            QDir().mkpath(QFileInfo(package.filePath(to)).absolutePath());
            return QFile::copy(source.filePath(from), package.filePath(to));
        };
        if (!copy(QStringLiteral("params.json"), target + QStringLiteral("/params.json")))
            return QStringLiteral("cannot copy the parameters of case %1").arg(target);
        for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
            const QString name =
                QString::fromStdString(spec.inputs[k].name) + QStringLiteral(".npy");
            if (!copy(QStringLiteral("inputs/") + name, target + QStringLiteral("/inputs/") + name))
                return QStringLiteral("cannot copy input %1").arg(name);
            entry["inputs"][spec.inputs[k].name] = {
                {"file", (target + QStringLiteral("/inputs/") + name).toStdString()},
                {"shape", r.inputs[k].shape()},
                {"dtype", std::string(dtypeName(r.inputs[k].dtype()))}};
        }
        entry["parameters"] = (target + QStringLiteral("/params.json")).toStdString();
        // The goldens: every output, and every mutated input's value after the call ("mutated").
        const std::vector<std::string> results = spec.resultNames();
        for (std::size_t k = 0; k < results.size() && k < r.outputs.size(); ++k) {
            const QString name = QString::fromStdString(results[k]) + QStringLiteral(".npy");
            if (!copy(QStringLiteral("outputs/") + name,
                      target + QStringLiteral("/golden/") + name))
                return QStringLiteral("cannot copy output %1").arg(name);
            entry[k < spec.outputs.size() ? "outputs" : "mutated"][results[k]] = {
                {"file", (target + QStringLiteral("/golden/") + name).toStdString()},
                {"shape", r.outputs[k].shape()},
                {"dtype", std::string(dtypeName(r.outputs[k].dtype()))}};
        }
        cases.push_back(entry);
    }
    if (cancelled(options)) return QStringLiteral("cancelled");
    const std::string text = nlohmann::ordered_json{{"cases", cases}}.dump(2) + "\n";
    return writeFileAtomically(package.filePath(QStringLiteral("tests/cases.json")),
                               QByteArray::fromStdString(text));
}

QString writeManifest(const QDir& package, const ProjectSources& sources)
{
    nlohmann::ordered_json files = nlohmann::ordered_json::object();
    QStringList paths;
    QDirIterator it(package.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext())
        paths << package.relativeFilePath(it.next());
    paths.sort();
    for (const QString& path : paths) {
        QFile file(package.filePath(path));
        if (!file.open(QIODevice::ReadOnly))
            return QStringLiteral("cannot read %1").arg(file.fileName());
        const QByteArray data = file.readAll();
        files[path.toStdString()] =
            sha256Hex(std::string_view(data.constData(), std::size_t(data.size())));
    }
    const OpSpec& spec = sources.loaded.spec;
    const nlohmann::ordered_json manifest{
        {"format", kPackageFormat},
        {"name", spec.name},
        {"namespace", spec.ns},
        {"op_type", spec.opType},
        {"version", spec.version},
        {"op_json_sha256", sha256Hex(sources.opJson)},
        {"kernel_file", "kernel/" + baseName(spec.kernel.file).toStdString()},
        {"kernel_sha256", sha256Hex(sources.kernel)},
        {"reference_sha256", sha256Hex(sources.reference)},
        {"files", files},
    };
    return writeFileAtomically(package.filePath(QString::fromLatin1(kManifestFile)),
                               QByteArray::fromStdString(manifest.dump(2) + "\n"));
}

// Moves the finished package over `target`. Where the file system can, the two folders swap in
// one atomic step, so at no moment is there no package; otherwise the old one is moved aside
// first and goes only once the new one is there (cleanLeftovers restores it after a crash).
QString installFolder(const QString& finished, const QString& target)
{
    if (QFileInfo::exists(target) &&
        ::renameat2(AT_FDCWD, QFile::encodeName(finished).constData(), AT_FDCWD,
                    QFile::encodeName(target).constData(), RENAME_EXCHANGE) == 0) {
        removeTree(finished.toStdString()); // now the previous package (or a link that was there)
        return {};
    }
    QString previous;
    if (QFileInfo::exists(target)) {
        previous = target + QStringLiteral(".previous");
        removeTree(previous.toStdString());
        if (!QDir().rename(target, previous))
            return QStringLiteral("cannot replace %1 (is it in use or read-only?)").arg(target);
    }
    if (!QDir().rename(finished, target)) {
        if (!previous.isEmpty()) QDir().rename(previous, target);
        return QStringLiteral("cannot move the package to %1").arg(target);
    }
    if (!previous.isEmpty()) removeTree(previous.toStdString());
    return {};
}

// What an export killed midway leaves in the output folder: hidden staging folders and
// archives, a half-written archive, and a package moved aside but not yet replaced (restored).
// Called with the package's lock held, so no other export is using them.
void cleanLeftovers(const QDir& out, const QString& packageName)
{
    const QStringList patterns{QStringLiteral(".%1-??????").arg(packageName),
                               QStringLiteral(".%1-??????.tar.gz*").arg(packageName),
                               QStringLiteral("%1.tar.gz.??????").arg(packageName)};
    for (const QFileInfo& entry : out.entryInfoList(
             patterns, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot)) {
        removeTree(entry.filePath().toStdString());
    }
    const QString target = out.filePath(packageName),
                  previous = target + QStringLiteral(".previous");
    const QFileInfo aside(previous);
    if (aside.isSymLink()) {
        removeTree(previous.toStdString()); // never ours
        return;
    }
    if (!aside.isDir()) return;
    if (!QFileInfo::exists(target))
        QDir().rename(previous, target);
    else
        removeTree(previous.toStdString());
}

// The package copies files of the project; each must really be inside it, not a symbolic link
// (or a path through one) to a file elsewhere that would be published with the package.
QString fileOutsideProject(const Project& project, const OpSpec& spec)
{
    const QString root = QDir(project.folder()).canonicalPath() + QLatin1Char('/');
    QStringList files{project.descriptionPath(), project.kernelPath(), project.referencePath()};
    for (const CaseSpec& c : spec.cases)
        for (const CaseInputSpec& in : c.inputs)
            if (in.fill.kind == FillSpec::Kind::File)
                files << QDir(project.folder()).filePath(QString::fromStdString(in.fill.path));
    for (const QString& file : files) {
        const QString real = QFileInfo(file).canonicalFilePath();
        if (!real.isEmpty() && !real.startsWith(root))
            return QStringLiteral("%1 is a symbolic link to %2, outside the project; copy the file "
                                  "into the project to export it")
                .arg(file, real);
    }
    return {};
}

} // namespace

ExportResult exportPackage(const Project& project, const ExportOptions& options)
{
    ExportResult result;
    auto step = [&](const char* what) {
        if (options.progress) options.progress(QString::fromLatin1(what));
    };
    step("reading the project");
    const ProjectSources sources = readProjectSources(project);
    if (!sources.error.isEmpty()) {
        result.error = sources.error;
        return result;
    }
    if (!sources.usable()) {
        result.diagnostics = sources.loaded.diagnostics;
        result.error = QStringLiteral("the op description has errors");
        return result;
    }
    const OpSpec& spec = sources.loaded.spec;
    if (QString error = fileOutsideProject(project, spec); !error.isEmpty()) {
        result.error = error;
        return result;
    }
    const QString outFolder = options.outputFolder.isEmpty()
                                  ? QDir(project.folder()).filePath(QStringLiteral("packages"))
                                  : options.outputFolder;
    const QString packageName = QString::fromStdString(spec.name + "-" + spec.version);
    if (!QDir().mkpath(outFolder)) {
        result.error = QStringLiteral("cannot create %1").arg(outFolder);
        return result;
    }
    // One export of a package at a time; a lock left by a killed export is taken over.
    QLockFile lock(QDir(outFolder).filePath(QStringLiteral(".%1.lock").arg(packageName)));
    lock.setStaleLockTime(0);
    if (!lock.tryLock(0)) {
        result.error = QStringLiteral("another export of %1 is running").arg(packageName);
        return result;
    }
    cleanLeftovers(QDir(outFolder), packageName);
    QTemporaryDir staging(
        QDir(outFolder).filePath(QStringLiteral(".") + packageName + QStringLiteral("-XXXXXX")));
    if (!staging.isValid()) {
        result.error =
            QStringLiteral("cannot write in %1: %2").arg(outFolder, staging.errorString());
        return result;
    }
    const QDir package(staging.path());

    step("generating the glue");
    std::vector<codegen::GeneratedFile> files = codegen::generateGlue(sources.glueSource());
    files.push_back({"op.json", sources.opJson});
    files.push_back({"kernel/" + baseName(spec.kernel.file).toStdString(), sources.kernel});
    files.push_back(
        {"reference/" + baseName(spec.reference.file).toStdString(), sources.reference});
    files.push_back({"README.md", codegen::generatePackageReadme(sources.glueSource())});
    if (QString error = writeGeneratedFiles(files, package.path()); !error.isEmpty()) {
        result.error = error;
        return result;
    }
    if (options.goldens) {
        step("running the reference for golden outputs");
        if (QString error = writeGoldens(sources.texts(project), spec, package, options);
            !error.isEmpty()) {
            result.error = error;
            return result;
        }
    }
    if (cancelled(options)) {
        result.error = QStringLiteral("cancelled");
        return result;
    }
    step("writing the manifest");
    if (QString error = writeManifest(package, sources); !error.isEmpty()) {
        result.error = error;
        return result;
    }
    // Normal permissions, not the 0700 of a temporary folder, before anyone can see it.
    QFile::setPermissions(package.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                              QFileDevice::ExeOwner | QFileDevice::ReadGroup |
                                              QFileDevice::ExeGroup | QFileDevice::ReadOther |
                                              QFileDevice::ExeOther);
    const QString target = QDir(outFolder).filePath(packageName);
    const QString archive = target + QStringLiteral(".tar.gz");
    const QString newArchive = package.path() + QStringLiteral(".tar.gz");
    if (options.archive) {
        step("writing the archive");
        if (QString error = writeReproducibleArchive(package.path(), newArchive, packageName);
            !error.isEmpty()) {
            result.error = error;
            return result;
        }
    }
    // The old archive describes the old folder: it goes before the folder is replaced, so no
    // moment pairs the new folder with it. Killed in between, there is a folder and no archive.
    if (QFileInfo::exists(archive) && !QFile::remove(archive)) {
        QFile::remove(newArchive);
        result.error = QStringLiteral("cannot replace %1").arg(archive);
        return result;
    }
    if (QString error = installFolder(package.path(), target); !error.isEmpty()) {
        QFile::remove(newArchive);
        result.error = error;
        return result;
    }
    staging.setAutoRemove(false);
    result.packageFolder = target;
    if (options.archive) {
        if (!QFile::rename(newArchive, archive)) {
            result.error = QStringLiteral("cannot move the archive to %1").arg(archive);
            return result;
        }
        result.archivePath = archive;
    }
    return result;
}

} // namespace ptowb
