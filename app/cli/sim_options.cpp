#include "commands.h"
#include "run/platforms.h"
#include "run_folder/run_folder.h"

#include <cstdlib>
#include <filesystem>
#include <ostream>

namespace ptowb::cli {

bool simOptionsFromCommandLine(const CommandLine& cmd, std::ostream& err, SimRunOptions& options)
{
    options.capture = cmd.hasFlag("capture");
    if (const auto limits = cmd.values("time-limit"); !limits.empty()) {
        char* end = nullptr;
        const double seconds = std::strtod(limits.back().c_str(), &end);
        if (end == limits.back().c_str() || *end != '\0' || !(seconds > 0) || seconds > 86400) {
            err << "ptowb-cli: --time-limit takes seconds, more than 0 and at most 86400, not '"
                << limits.back() << "'\n";
            return false;
        }
        options.timeoutSeconds = seconds;
    }
    const auto platforms = cmd.values("platform");
    std::string platform = platforms.empty() ? "" : platforms.back();
    if (platform.empty() && !cmd.values("trace").empty())
        platform = "generic"; // a trace needs estimates
    if (platform.empty()) return true;
    std::string error;
    options.platformFile = findPlatformFile(platform, error);
    if (options.platformFile.empty()) err << "ptowb-cli: " << error << '\n';
    return !options.platformFile.empty();
}

bool copyTrace(const CommandLine& cmd, const std::string& runDir, const std::string& caseName,
               std::ostream& err)
{
    const auto traces = cmd.values("trace");
    if (traces.empty()) return true;
    const std::string source = runfolder::tracePath(runfolder::caseDir(runDir, caseName));
    std::error_code ec;
    std::filesystem::copy_file(source, traces.back(),
                               std::filesystem::copy_options::overwrite_existing, ec);
    if (ec)
        err << "ptowb-cli: cannot write the trace " << traces.back() << ": " << ec.message()
            << '\n';
    return !ec;
}

} // namespace ptowb::cli
