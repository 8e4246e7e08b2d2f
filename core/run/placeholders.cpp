#include "run/placeholders.h"

#include <regex>

namespace ptowb {

namespace {

const std::regex& placeholderPattern()
{
    static const std::regex pattern(R"(\{([A-Za-z_][A-Za-z0-9_]*)\})");
    return pattern;
}

} // namespace

std::vector<std::string> placeholderNames(const std::string& argument)
{
    std::vector<std::string> names;
    for (auto it = std::sregex_iterator(argument.begin(), argument.end(), placeholderPattern());
         it != std::sregex_iterator(); ++it)
        names.push_back((*it)[1]);
    return names;
}

std::string expandPlaceholders(const std::string& argument,
                               const std::map<std::string, std::string>& values)
{
    std::string out;
    auto last = argument.cbegin();
    for (auto it = std::sregex_iterator(argument.begin(), argument.end(), placeholderPattern());
         it != std::sregex_iterator(); ++it) {
        const std::smatch& match = *it;
        out.append(last, match[0].first);
        const auto value = values.find(match[1]);
        out += value != values.end() ? value->second : match.str(0);
        last = match[0].second;
    }
    out.append(last, argument.cend());
    return out;
}

std::string placeholderList(const std::vector<std::string>& names)
{
    std::string out;
    for (const std::string& name : names)
        out += (out.empty() ? "{" : " {") + name + "}";
    return out;
}

} // namespace ptowb
