#include "cli_options.h"

#include <algorithm>

namespace ptowb::cli {

bool CommandLine::hasFlag(const std::string& flag) const
{
    return std::find(flags.begin(), flags.end(), flag) != flags.end();
}

std::vector<std::string> CommandLine::values(const std::string& option) const
{
    std::vector<std::string> out;
    auto [first, last] = options.equal_range(option);
    for (auto it = first; it != last; ++it)
        out.push_back(it->second);
    return out;
}

std::string parseCommandLine(const std::vector<std::string>& args,
                             const std::vector<std::string>& valued, CommandLine& out)
{
    for (std::size_t k = 0; k < args.size(); ++k) {
        const std::string& a = args[k];
        if (a.rfind("--", 0) != 0 || a == "--") {
            out.positional.push_back(a);
            continue;
        }
        std::string name = a.substr(2);
        std::string value;
        const std::size_t eq = name.find('=');
        const bool inlineValue = eq != std::string::npos;
        if (inlineValue) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
        }
        if (std::find(valued.begin(), valued.end(), name) == valued.end()) {
            if (inlineValue) return "option --" + name + " takes no value";
            out.flags.push_back(name);
            continue;
        }
        if (!inlineValue) {
            if (k + 1 >= args.size()) return "option --" + name + " needs a value";
            value = args[++k];
        }
        out.options.emplace(name, value);
    }
    return {};
}

} // namespace ptowb::cli
