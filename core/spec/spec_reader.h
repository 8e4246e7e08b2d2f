#pragma once

#include "json/json_document.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptowb {

// Reads typed fields out of a JsonDocument and reports every problem as a diagnostic at the
// offending value. Internal to the op.json loader.
class SpecReader
{
public:
    using json = nlohmann::json;

    SpecReader(const JsonDocument& doc, Diagnostics& diagnostics) : m_doc(doc), m_diags(diagnostics)
    {
    }

    const JsonDocument& doc() const { return m_doc; }

    void error(const std::string& pointer, std::string code, std::string message,
               bool atKey = false);
    void warning(const std::string& pointer, std::string code, std::string message,
                 bool atKey = false);
    // An error at bytes [begin, end) of the string value at `pointer` (for rule texts).
    void errorInString(const std::string& pointer, std::size_t begin, std::size_t end,
                       std::string code, std::string message);

    // Warns about keys outside `known`, with a "did you mean" hint.
    void checkKeys(const json& object, const std::string& pointer,
                   const std::vector<std::string>& known);

    // Each returns nullopt (after reporting) when the key is missing-but-required or mistyped.
    const json* member(const json& object, const std::string& pointer, const char* key,
                       bool required);
    bool isType(const json& value, const std::string& pointer, json::value_t type,
                const char* what);
    std::optional<std::string> string(const json& object, const std::string& pointer,
                                      const char* key, bool required);
    std::optional<std::int64_t> integer(const json& object, const std::string& pointer,
                                        const char* key, bool required, std::int64_t min,
                                        std::int64_t max);
    std::optional<double> number(const json& object, const std::string& pointer, const char* key,
                                 bool required, double min, double max);
    const json* array(const json& object, const std::string& pointer, const char* key,
                      bool required);
    const json* object(const json& object, const std::string& pointer, const char* key,
                       bool required);

    static std::string child(const std::string& pointer, const std::string& key);
    static std::string child(const std::string& pointer, std::size_t index);

private:
    const JsonDocument& m_doc;
    Diagnostics& m_diags;
};

} // namespace ptowb
