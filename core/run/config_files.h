#pragma once

#include "diag/diagnostic.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ptowb {

class SpecReader;

// A configuration file's text, read from disk or still in an editor.
struct ConfigText
{
    std::string file;
    std::string text;
};
// Reads the files that exist; a missing file is fine, an oversized one a diagnostic.
std::vector<ConfigText> readConfigTexts(const std::vector<std::string>& files,
                                        Diagnostics& diagnostics);

// A loader of texts applied to files: what could not be read comes first in its diagnostics.
template <class Result>
Result loadConfigFiles(const std::vector<std::string>& files,
                       Result (*fromTexts)(const std::vector<ConfigText>&))
{
    Diagnostics unreadable;
    Result out = fromTexts(readConfigTexts(files, unreadable));
    out.diagnostics.insert(out.diagnostics.begin(), unreadable.begin(), unreadable.end());
    return out;
}

// Reads JSON configuration files in order (user's, then project's): a missing file is fine; an
// oversized or malformed one is a diagnostic at its line:col. `read` gets each parsed root.
void readJsonConfigFiles(const std::vector<ConfigText>& texts, Diagnostics& diagnostics,
                         const std::function<void(SpecReader& reader, const nlohmann::json& root,
                                                  const std::string& file)>& read);

// The same, for files holding one item, an array of items, or {"<listKey>": [...]}: `readItem`
// gets each item with its JSON pointer.
void readJsonConfigItems(
    const std::vector<ConfigText>& texts, Diagnostics& diagnostics, const char* listKey,
    const std::function<void(SpecReader& reader, const nlohmann::json& item,
                             const std::string& pointer, const std::string& file)>& readItem);

// The name of a configured item (a runner, a deploy target): letters, digits, '_', '.', '-',
// 1 to 64 of them, not starting with '.' or '-'.
bool isConfigItemName(const std::string& name);

} // namespace ptowb
