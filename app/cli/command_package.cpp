#include "commands.h"

#include "package/package_check.h"
#include "package/package_export.h"

#include <ostream>

namespace ptowb::cli {

int runExport(const CommandLine& cmd, std::ostream& out, std::ostream& err)
{
    auto project = openProjectArgument(cmd, "ptowb-cli export <project> [--out DIR] [--archive]", err);
    if (!project) return kUsageError;
    ExportOptions options;
    options.archive = cmd.hasFlag("archive");
    if (const auto dirs = cmd.values("out"); !dirs.empty()) options.outputFolder = QString::fromStdString(dirs.back());
    options.progress = [&err](const QString& step) { err << step.toStdString() << "...\n"; };
    const ExportResult result = exportPackage(*project, options);
    for (const Diagnostic& d : result.diagnostics) out << formatDiagnostic(d) << '\n';
    if (!result.ok()) {
        err << "ptowb-cli: export failed: " << result.error.toStdString() << '\n';
        return hasErrors(result.diagnostics) ? kFailure : kUsageError;
    }
    out << result.packageFolder.toStdString() << '\n';
    if (!result.archivePath.isEmpty()) out << result.archivePath.toStdString() << '\n';
    return kSuccess;
}

int runCheckPackage(const CommandLine& cmd, std::ostream& out, std::ostream& err)
{
    if (cmd.positional.size() != 1) {
        err << "usage: ptowb-cli check-package <package folder or .tar.gz>\n";
        return kUsageError;
    }
    const PackageCheck check = checkPackage(QString::fromStdString(cmd.positional[0]));
    if (!check.error.isEmpty()) {
        err << "ptowb-cli: " << check.error.toStdString() << '\n';
        return kUsageError;
    }
    for (const QString& f : check.missing) out << "missing: " << f.toStdString() << '\n';
    for (const QString& f : check.changed) out << "changed: " << f.toStdString() << '\n';
    for (const QString& f : check.extra) out << "extra: " << f.toStdString() << '\n';
    for (const QString& f : check.unsafe)
        out << "unsafe: " << f.toStdString() << '\n';
    if (check.ok()) out << "package ok\n";
    return check.ok() ? kSuccess : kFailure;
}

} // namespace ptowb::cli
