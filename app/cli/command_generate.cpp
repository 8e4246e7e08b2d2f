#include "commands.h"
#include "io/clean_path.h"

#include <algorithm>
#include <filesystem>
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
        options.glueFolder = cleanAbsolutePath(dirs.back());
    const PipelineResult result = runPipeline(*project, options);
    if (const int status = reportSteps(result, err, err); status != kSuccess) return status;
    namespace fs = std::filesystem;
    const std::string folder =
        options.glueFolder.empty() ? project->glueFolder() : options.glueFolder;
    std::vector<std::string> files; // hidden files and folders are not the glue's
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(folder, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        std::error_code e;
        if (it->path().filename().string().front() == '.') {
            if (it->is_directory(e)) it.disable_recursion_pending();
        } else if (it->is_regular_file(e)) {
            files.push_back(it->path().string());
        }
    }
    std::sort(files.begin(), files.end());
    for (const std::string& file : files)
        out << file << '\n';
    return kSuccess;
}

} // namespace ptowb::cli
