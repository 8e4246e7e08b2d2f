#include "json/json_text.h"

namespace ptowb {

namespace {

// {"dict": [[key, value], ...]}: op.json's spelling of a Python dict, read like the list it holds.
bool isLiteralDict(const nlohmann::ordered_json& value)
{
    return value.is_object() && value.size() == 1 && value.contains("dict") &&
           value["dict"].is_array();
}

bool holdsObject(const nlohmann::ordered_json& value)
{
    if (isLiteralDict(value)) return holdsObject(value["dict"]);
    if (value.is_object()) return true;
    if (!value.is_array()) return false;
    for (const auto& item : value)
        if (holdsObject(item)) return true;
    return false;
}

// `column`: where the value starts on its line, so an inline array can be measured.
void write(const nlohmann::ordered_json& value, std::size_t indent, std::size_t column,
           std::size_t width, std::string& out)
{
    if (value.is_array() && !value.empty() && !holdsObject(value)) {
        std::string line = "[";
        for (std::size_t k = 0; k < value.size(); ++k) {
            line += k ? ", " : "";
            write(value[k], indent, column + line.size(), width, line);
        }
        line += "]";
        if (column + line.size() <= width && line.find('\n') == std::string::npos) {
            out += line;
            return;
        }
    }
    if (isLiteralDict(value) && !holdsObject(value)) {
        std::string line = "{\"dict\": ";
        write(value["dict"], indent, column + line.size(), width, line);
        line += "}";
        if (column + line.size() <= width && line.find('\n') == std::string::npos) {
            out += line;
            return;
        }
    }
    const std::string pad(indent + 2, ' ');
    if (value.is_object() && !value.empty()) {
        out += "{\n";
        std::size_t k = 0;
        for (const auto& [key, item] : value.items()) {
            const std::string head = pad + nlohmann::ordered_json(key).dump() + ": ";
            out += head;
            write(item, indent + 2, head.size(), width, out);
            out += ++k < value.size() ? ",\n" : "\n";
        }
        out += std::string(indent, ' ') + "}";
    } else if (value.is_array() && !value.empty()) {
        out += "[\n";
        for (std::size_t k = 0; k < value.size(); ++k) {
            out += pad;
            write(value[k], indent + 2, pad.size(), width, out);
            out += k + 1 < value.size() ? ",\n" : "\n";
        }
        out += std::string(indent, ' ') + "]";
    } else {
        out += value.dump();
    }
}

} // namespace

std::string readableJson(const nlohmann::ordered_json& value, std::size_t width)
{
    std::string out;
    write(value, 0, 0, width, out);
    return out;
}

} // namespace ptowb
