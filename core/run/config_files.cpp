#include "run/config_files.h"

#include "json/json_document.h"
#include "spec/spec_reader.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace ptowb {

void readJsonConfigFiles(const std::vector<std::string>& files, Diagnostics& diagnostics,
                         const std::function<void(SpecReader& reader, const nlohmann::json& root, const std::string& file)>& read)
{
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
        const JsonDocument doc = JsonDocument::parse(text.str(), file);
        for (const auto& d : doc.diagnostics()) diagnostics.push_back(d);
        if (!doc.ok()) continue;
        SpecReader reader(doc, diagnostics);
        read(reader, doc.root(), file);
    }
}

} // namespace ptowb
