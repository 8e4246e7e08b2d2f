#include "commands.h"

#include "codegen/project_glue.h"

#include <QDir>

#include <ostream>

namespace ptowb::cli {

int runGenerate(const CommandLine& cmd, std::ostream& out, std::ostream& err)
{
    auto project = openProjectArgument(cmd, "ptowb-cli generate <project> [--out DIR]", err);
    if (!project) return kUsageError;
    const codegen::ProjectSources sources = codegen::readProjectSources(*project);
    if (!sources.error.isEmpty()) {
        err << "ptowb-cli: " << sources.error.toStdString() << '\n';
        return kUsageError;
    }
    if (!sources.usable()) {
        for (const Diagnostic& d : sources.loaded.diagnostics) out << formatDiagnostic(d) << '\n';
        err << "ptowb-cli: the op description has errors; nothing was generated\n";
        return kFailure;
    }
    const auto outDirs = cmd.values("out");
    const QString folder = outDirs.empty() ? QDir(project->folder()).filePath(QStringLiteral(".ptowb/glue")) : QString::fromStdString(outDirs.back());
    const auto files = codegen::generateGlue(sources.glueSource());
    if (const QString error = codegen::writeGeneratedFiles(files, folder); !error.isEmpty()) {
        err << "ptowb-cli: " << error.toStdString() << '\n';
        return kUsageError;
    }
    for (const auto& file : files) out << QDir(folder).filePath(QString::fromStdString(file.path)).toStdString() << '\n';
    return kSuccess;
}

} // namespace ptowb::cli
