#pragma once

#include "diag/diagnostic.h"
#include "diag/text_position.h"

#include <cstddef>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_map>

namespace ptowb {

struct JsonSpan
{
    std::size_t begin = 0; // byte offset of the first character
    std::size_t end = 0;   // one past the last character
};

// A parsed JSON file that remembers where every value and key stands in the text, so that
// any problem found later can be reported at file:line:col of the offending value.
class JsonDocument
{
public:
    static constexpr std::size_t kMaxBytes = 16u << 20;
    static constexpr int kMaxDepth = 128;

    static JsonDocument parse(std::string text, std::string fileName);

    bool ok() const { return m_parsed; }
    const nlohmann::json& root() const { return m_root; }
    const std::string& text() const { return m_text; }
    const std::string& fileName() const { return m_fileName; }
    // Problems found while reading: syntax errors, duplicate keys, size and depth limits.
    const Diagnostics& diagnostics() const { return m_diagnostics; }

    // Span of the value at a JSON pointer; falls back to the nearest ancestor that exists.
    JsonSpan valueSpan(const std::string& pointer) const;
    std::optional<JsonSpan> keySpan(const std::string& pointer) const;
    // Byte offset in the file of byte `decodedIndex` of the string value at `pointer`,
    // accounting for escape sequences. Used to point inside rule strings.
    std::size_t offsetInString(const std::string& pointer, std::size_t decodedIndex) const;

    Diagnostic diagnosticAt(JsonSpan span, const std::string& pointer, Severity severity,
                            std::string code, std::string message) const;
    // At the value (or, when atKey is set and the value has a key, at the key).
    Diagnostic diagnostic(const std::string& pointer, Severity severity, std::string code,
                          std::string message, bool atKey = false) const;

    static std::string escapePointerToken(const std::string& token);

private:
    friend class SourceMappingSax;

    std::string m_text;
    std::string m_fileName;
    nlohmann::json m_root;
    bool m_parsed = false;
    Diagnostics m_diagnostics;
    std::unordered_map<std::string, JsonSpan> m_valueSpans;
    std::unordered_map<std::string, JsonSpan> m_keySpans;
    std::shared_ptr<LineIndex> m_lines;
};

// "object", "array", "string", "integer", "number", "boolean", "null" — for messages.
const char* jsonKindName(const nlohmann::json& value);

} // namespace ptowb
