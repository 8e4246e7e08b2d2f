#include "commands.h"

#include <QDir>
#include <QDirIterator>
#include <ostream>

namespace ptowb::cli {

int runGenerate(const CommandLine& cmd, std::ostream& out, std::ostream& err)
{
    auto project = openProjectArgument(cmd, "ptowb-cli generate <project> [--out DIR]", err);
    if (!project) return kUsageError;
    // The app's Generate: validate, then the glue staged and swapped into place, the previous
    // generation kept beside it.
    PipelineOptions options;
    options.stopAfter = PipelineStep::Generate;
    if (const auto dirs = cmd.values("out"); !dirs.empty())
        options.glueFolder = QDir(QString::fromStdString(dirs.back())).absolutePath();
    const PipelineResult result = runPipeline(*project, options);
    if (const int status = reportSteps(result, err, err); status != kSuccess) return status;
    const QString folder =
        options.glueFolder.isEmpty() ? project->glueFolder() : options.glueFolder;
    QStringList files;
    for (QDirIterator it(folder, QDir::Files, QDirIterator::Subdirectories); it.hasNext();)
        files << it.next();
    files.sort();
    for (const QString& file : files)
        out << file.toStdString() << '\n';
    return kSuccess;
}

} // namespace ptowb::cli
