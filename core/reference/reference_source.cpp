#include "reference/reference_program.h"

#include <sstream>

namespace ptowb {

std::string stripImports(const std::string& source,
                         std::vector<std::pair<std::string, std::string>>& aliases)
{
    std::istringstream in(source);
    std::string out;
    bool inParenthesizedImport = false;
    std::string fromModule;
    auto addNames = [&](std::string names, const std::string& module) {
        for (char& c : names)
            if (c == '(' || c == ')') c = ' ';
        std::istringstream list(names);
        for (std::string item; std::getline(list, item, ',');) {
            std::istringstream words(item);
            std::string name, as, alias;
            words >> name >> as >> alias;
            if (name.empty()) continue;
            const std::string full = module.empty() ? name : module + "." + name;
            const std::string bound = as == "as"       ? alias
                                      : module.empty() ? name.substr(0, name.find('.'))
                                                       : name;
            aliases.emplace_back(
                bound, module.empty() && as != "as" ? full.substr(0, full.find('.')) : full);
        }
    };
    for (std::string line; std::getline(in, line);) {
        if (inParenthesizedImport) {
            addNames(line, fromModule);
            inParenthesizedImport = line.find(')') == std::string::npos;
            out += "\n";
            continue;
        }
        if (line.rfind("import ", 0) == 0) {
            addNames(line.substr(7), "");
            out += "\n";
        } else if (line.rfind("from ", 0) == 0 && line.find(" import ") != std::string::npos) {
            const std::size_t at = line.find(" import ");
            fromModule = line.substr(5, at - 5);
            fromModule.erase(fromModule.find_last_not_of(' ') + 1);
            const std::string names = line.substr(at + 8);
            addNames(names, fromModule);
            inParenthesizedImport =
                names.find('(') != std::string::npos && names.find(')') == std::string::npos;
            out += "\n";
        } else {
            out += line + "\n";
        }
    }
    return out;
}

} // namespace ptowb
