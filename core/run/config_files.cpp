#include "run/config_files.h"

#include "spec/spec_reader.h"

#include "json/json_document.h"
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace ptowb {

std::vector<ConfigText> readConfigTexts(const std::vector<std::string>& files,
                                        Diagnostics& diagnostics)
{
    std::vector<ConfigText> texts;
    for (const std::string& file : files) {
        std::error_code ec;
        if (!std::filesystem::is_regular_file(file, ec)) continue;
        if (std::filesystem::file_size(file, ec) > JsonDocument::kMaxBytes) {
            Diagnostic d;
            d.file = file;
            d.code = "config.too-large";
            d.message = "configuration file is larger than 16 MiB";
            diagnostics.push_back(d);
            continue;
        }
        std::ifstream in(file, std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        texts.push_back({file, text.str()});
    }
    return texts;
}

void readJsonConfigFiles(const std::vector<ConfigText>& texts, Diagnostics& diagnostics,
                         const std::function<void(SpecReader& reader, const nlohmann::json& root,
                                                  const std::string& file)>& read)
{
    for (const ConfigText& config : texts) {
        const JsonDocument doc = JsonDocument::parse(config.text, config.file);
        for (const auto& d : doc.diagnostics())
            diagnostics.push_back(d);
        if (!doc.ok()) continue;
        SpecReader reader(doc, diagnostics);
        read(reader, doc.root(), config.file);
    }
}

void readJsonConfigItems(
    const std::vector<ConfigText>& texts, Diagnostics& diagnostics, const char* listKey,
    const std::function<void(SpecReader& reader, const nlohmann::json& item,
                             const std::string& pointer, const std::string& file)>& readItem)
{
    readJsonConfigFiles(texts, diagnostics,
                        [&](SpecReader& r, const nlohmann::json& root, const std::string& file) {
                            if (root.is_array()) {
                                for (std::size_t k = 0; k < root.size(); ++k)
                                    readItem(r, root[k], SpecReader::child("", k), file);
                            } else if (root.is_object() && root.contains(listKey)) {
                                const std::string key = std::string("/") + listKey;
                                if (const auto* list = r.array(root, "", listKey, true))
                                    for (std::size_t k = 0; k < list->size(); ++k)
                                        readItem(r, (*list)[k], SpecReader::child(key, k), file);
                            } else {
                                readItem(r, root, "", file);
                            }
                        });
}

bool isConfigItemName(const std::string& name)
{
    static const std::regex kName(R"(^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$)");
    return std::regex_match(name, kName);
}

} // namespace ptowb
