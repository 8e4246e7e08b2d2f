#include "importer/recording_json.h"

#include <charconv>

namespace ptowb::importer {

using json = nlohmann::json;

const json& member(const json& j, const char* key)
{
    static const json null;
    if (!j.is_object()) return null;
    auto it = j.find(key);
    return it == j.end() ? null : *it;
}

const json& list(const json& j, const char* key)
{
    static const json empty = json::array();
    const json& m = member(j, key);
    return m.is_array() ? m : empty;
}

std::string text(const json& j, const char* key)
{
    const json& m = member(j, key);
    return m.is_string() ? m.get<std::string>() : std::string();
}

std::vector<std::int64_t> shapeOf(const json& described)
{
    std::vector<std::int64_t> shape;
    for (const auto& d : list(described, "shape")) {
        if (!d.is_number_integer()) return {};
        shape.push_back(d.get<std::int64_t>());
    }
    return shape;
}

int number(const json& j, const char* key, int fallback)
{
    const json& m = member(j, key);
    return m.is_number_integer() ? m.get<int>() : fallback;
}

std::string identifier(const std::string& spelled)
{
    std::string out;
    for (char c : spelled) {
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
        const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
        out += ok ? c : '_';
    }
    while (out.find("__") != std::string::npos)
        out.erase(out.find("__"), 1);
    while (!out.empty() && out.front() == '_')
        out.erase(0, 1);
    while (!out.empty() && out.back() == '_')
        out.pop_back();
    if (out.empty() || (out[0] >= '0' && out[0] <= '9')) out = "case_" + out;
    return out;
}

std::optional<std::string> literal(const json& described)
{
    const std::string kind = text(described, "kind");
    const json& v = member(described, "value");
    if (kind == "bool" && v.is_boolean()) return v.get<bool>() ? "True" : "False";
    if (kind == "int" && v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
    if (kind == "float" && v.is_number()) {
        char buffer[64];
        const double d = v.get<double>();
        auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, d);
        std::string s(buffer, end);
        if (s.find_first_of(".en") == std::string::npos) s += ".0";
        return s;
    }
    if (kind == "str" && v.is_string()) {
        std::string s = "'";
        for (char c : v.get<std::string>()) {
            if (c == '\'' || c == '\\') s += '\\';
            if (static_cast<unsigned char>(c) < 0x20) return std::nullopt;
            s += c;
        }
        return s + "'";
    }
    if (kind == "dtype" && v.is_string()) return v.get<std::string>();
    if ((kind == "int[]" || kind == "float[]") && v.is_array()) {
        std::string s = "[";
        for (std::size_t k = 0; k < v.size(); ++k) {
            auto item = literal(json{{"kind", kind == "int[]" ? "int" : "float"}, {"value", v[k]}});
            if (!item) return std::nullopt;
            s += (k ? ", " : "") + *item;
        }
        return s + "]";
    }
    return std::nullopt;
}

const json& fieldOf(const json* config, const std::string& field)
{
    static const json null;
    return config ? member(member(*config, "fields"), field.c_str()) : null;
}

const json* argument(const json& call, const std::string& name)
{
    for (const auto& a : list(call, "args"))
        if (text(a, "name") == name) return &a;
    return nullptr;
}

} // namespace ptowb::importer
