#include "json/json_document.h"

#include <cctype>
#include <cstring>
#include <iterator>
#include <vector>

namespace ptowb {
namespace {

// Wraps a char pointer for nlohmann's iterator input adapter and records how many bytes the
// lexer has consumed. At each SAX event that count is the end of the token just read.
struct CountingIterator
{
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    const char* position = nullptr;
    const char* base = nullptr;
    std::size_t* consumed = nullptr;

    reference operator*() const
    {
        *consumed = std::size_t(position - base) + 1;
        return *position;
    }
    CountingIterator& operator++()
    {
        ++position;
        return *this;
    }
    CountingIterator operator++(int)
    {
        auto copy = *this;
        ++position;
        return copy;
    }
    bool operator==(const CountingIterator& other) const { return position == other.position; }
    bool operator!=(const CountingIterator& other) const { return position != other.position; }
};

std::string cleanParserMessage(const std::string& what)
{
    // nlohmann prefixes "[json.exception.parse_error.101] parse error at line 1, column 2: ".
    auto pos = what.find(": ");
    std::string message = pos == std::string::npos ? what : what.substr(pos + 2);
    if (message.rfind("syntax error while parsing ", 0) == 0) message = message.substr(27);
    return "invalid JSON: " + message;
}

} // namespace

class SourceMappingSax
{
public:
    using json = nlohmann::json;

    SourceMappingSax(JsonDocument& doc, const std::size_t& consumed)
        : m_doc(doc), m_consumed(consumed)
    {
        if (doc.m_text.rfind("\xEF\xBB\xBF", 0) == 0) m_prevEnd = 3;
    }

    bool null() { return scalar(json(nullptr)); }
    bool boolean(bool v) { return scalar(json(v)); }
    bool number_integer(json::number_integer_t v) { return scalar(json(v), true); }
    bool number_unsigned(json::number_unsigned_t v) { return scalar(json(v), true); }
    bool number_float(json::number_float_t v, const std::string&) { return scalar(json(v), true); }
    bool string(std::string& v) { return scalar(json(std::move(v))); }
    bool binary(json::binary_t&) { return false; }

    bool start_object(std::size_t) { return open(json::object()); }
    bool start_array(std::size_t) { return open(json::array()); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }

    bool key(std::string& key)
    {
        Frame& frame = m_frames.back();
        const std::size_t begin = tokenStart();
        const std::string pointer = frame.pointer + '/' + JsonDocument::escapePointerToken(key);
        if (frame.container->contains(key)) {
            m_doc.m_keySpans[pointer] = {begin, m_consumed};
            m_doc.m_diagnostics.push_back(m_doc.diagnosticAt(
                {begin, m_consumed}, pointer, Severity::Error, "json.duplicate-key",
                "duplicate key \"" + key + "\": each key may appear once in an object"));
        }
        m_doc.m_keySpans[pointer] = {begin, m_consumed};
        frame.key = std::move(key);
        m_prevEnd = m_consumed;
        return true;
    }

    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& ex)
    {
        std::size_t offset = position > 0 ? position - 1 : 0;
        // A number too large for a double is reported at its last digit; point at its first.
        if (std::strstr(ex.what(), "number overflow")) {
            const std::string& t = m_doc.m_text;
            while (offset > 0 && t[offset - 1] != '\0' &&
                   std::strchr("0123456789.eE+-", t[offset - 1]))
                --offset;
        }
        std::string message = cleanParserMessage(ex.what());
        // Two values with only space between them, inside an object or a list: the comma after
        // the first is what is missing, and that is the line to fix, not the next one's.
        const std::string& t = m_doc.m_text;
        const bool expectedEnd =
            std::strstr(ex.what(), "; expected '}'") || std::strstr(ex.what(), "; expected ']'");
        if (expectedEnd && m_prevEnd > 0 && m_prevEnd <= offset &&
            t.find_first_not_of(" \t\r\n", m_prevEnd) < t.size() &&
            std::strchr("\"{[-0123456789tfn", t[t.find_first_not_of(" \t\r\n", m_prevEnd)])) {
            offset = m_prevEnd - 1;
            message = "invalid JSON: a ',' is missing after this value";
        }
        m_doc.m_diagnostics.push_back(
            m_doc.diagnosticAt({offset, offset + 1}, "", Severity::Error, "json.syntax", message));
        return false;
    }

private:
    struct Frame
    {
        json* container;
        std::string pointer;
        std::size_t nextIndex = 0;
        std::string key;
    };

    std::size_t tokenStart() const
    {
        const std::string& t = m_doc.m_text;
        std::size_t i = m_prevEnd;
        while (i < t.size() && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r' ||
                                t[i] == ',' || t[i] == ':'))
            ++i;
        return i;
    }

    std::size_t numberEnd(std::size_t begin) const
    {
        const std::string& t = m_doc.m_text;
        std::size_t i = begin;
        while (i < t.size() && (std::isdigit(static_cast<unsigned char>(t[i])) || t[i] == '-' ||
                                t[i] == '+' || t[i] == '.' || t[i] == 'e' || t[i] == 'E'))
            ++i;
        return i;
    }

    // Inserts a value into the open container (or makes it the root); returns it and its pointer.
    json* insert(json&& value, std::string& pointer)
    {
        if (m_frames.empty()) {
            m_doc.m_root = std::move(value);
            pointer.clear();
            return &m_doc.m_root;
        }
        Frame& frame = m_frames.back();
        if (frame.container->is_array()) {
            pointer = frame.pointer + '/' + std::to_string(frame.nextIndex++);
            frame.container->push_back(std::move(value));
            return &frame.container->back();
        }
        pointer = frame.pointer + '/' + JsonDocument::escapePointerToken(frame.key);
        json& slot = (*frame.container)[frame.key];
        slot = std::move(value);
        return &slot;
    }

    bool scalar(json&& value, bool isNumber = false)
    {
        const std::size_t begin = tokenStart();
        const std::size_t end = isNumber ? numberEnd(begin) : m_consumed;
        std::string pointer;
        insert(std::move(value), pointer);
        m_doc.m_valueSpans[pointer] = {begin, end};
        m_prevEnd = end;
        return true;
    }

    bool open(json&& container)
    {
        const std::size_t begin = m_consumed > 0 ? m_consumed - 1 : 0;
        if (int(m_frames.size()) >= JsonDocument::kMaxDepth) {
            m_doc.m_diagnostics.push_back(
                m_doc.diagnosticAt({begin, begin + 1}, "", Severity::Error, "json.too-deep",
                                   "invalid JSON: nesting is deeper than " +
                                       std::to_string(JsonDocument::kMaxDepth) + " levels"));
            return false;
        }
        std::string pointer;
        json* inserted = insert(std::move(container), pointer);
        m_doc.m_valueSpans[pointer] = {begin, begin + 1};
        m_frames.push_back(Frame{inserted, pointer, 0, {}});
        m_prevEnd = m_consumed;
        return true;
    }

    bool close()
    {
        m_doc.m_valueSpans[m_frames.back().pointer].end = m_consumed;
        m_frames.pop_back();
        m_prevEnd = m_consumed;
        return true;
    }

    JsonDocument& m_doc;
    const std::size_t& m_consumed;
    std::size_t m_prevEnd = 0;
    std::vector<Frame> m_frames;
};

JsonDocument JsonDocument::parse(std::string text, std::string fileName)
{
    JsonDocument doc;
    doc.m_text = std::move(text);
    doc.m_fileName = std::move(fileName);
    doc.m_lines = std::make_shared<LineIndex>(doc.m_text);
    if (doc.m_text.size() > kMaxBytes) {
        doc.m_diagnostics.push_back(
            doc.diagnosticAt({0, 0}, "", Severity::Error, "json.too-large",
                             "file is " + std::to_string(doc.m_text.size()) + " bytes; at most " +
                                 std::to_string(kMaxBytes) + " bytes are read"));
        return doc;
    }
    std::size_t consumed = 0;
    const char* base = doc.m_text.data();
    CountingIterator first{base, base, &consumed};
    CountingIterator last{base + doc.m_text.size(), base, &consumed};
    SourceMappingSax sax(doc, consumed);
    // Duplicate keys are reported but leave a usable tree; syntax errors do not.
    doc.m_parsed = nlohmann::json::sax_parse(first, last, &sax);
    return doc;
}

JsonSpan JsonDocument::valueSpan(const std::string& pointer) const
{
    std::string p = pointer;
    while (true) {
        if (auto it = m_valueSpans.find(p); it != m_valueSpans.end()) return it->second;
        if (p.empty()) return {0, 0};
        p.erase(p.rfind('/'));
    }
}

std::optional<JsonSpan> JsonDocument::keySpan(const std::string& pointer) const
{
    if (auto it = m_keySpans.find(pointer); it != m_keySpans.end()) return it->second;
    return std::nullopt;
}

std::size_t JsonDocument::offsetInString(const std::string& pointer, std::size_t decodedIndex) const
{
    const JsonSpan span = valueSpan(pointer);
    std::size_t raw = span.begin + 1; // after the opening quote
    std::size_t decoded = 0;
    while (decoded < decodedIndex && raw + 1 < span.end) {
        if (m_text[raw] != '\\') {
            ++raw;
            ++decoded;
            continue;
        }
        if (m_text[raw + 1] != 'u') {
            raw += 2;
            ++decoded;
            continue;
        }
        unsigned code = std::stoul(m_text.substr(raw + 2, 4), nullptr, 16);
        raw += 6;
        if (code >= 0xD800 && code < 0xDC00) {
            raw += 6; // low surrogate
            decoded += 4;
        } else {
            decoded += code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
        }
    }
    return raw;
}

Diagnostic JsonDocument::diagnosticAt(JsonSpan span, const std::string& pointer, Severity severity,
                                      std::string code, std::string message) const
{
    const LineCol begin = m_lines->at(span.begin);
    const LineCol end = m_lines->at(std::max(span.end, span.begin));
    Diagnostic d;
    d.file = m_fileName;
    d.line = begin.line;
    d.col = begin.col;
    d.endLine = end.line;
    d.endCol = end.col;
    d.severity = severity;
    d.code = std::move(code);
    d.message = std::move(message);
    d.pointer = pointer;
    return d;
}

Diagnostic JsonDocument::diagnostic(const std::string& pointer, Severity severity, std::string code,
                                    std::string message, bool atKey) const
{
    JsonSpan span = valueSpan(pointer);
    if (atKey)
        if (auto key = keySpan(pointer)) span = *key;
    return diagnosticAt(span, pointer, severity, std::move(code), std::move(message));
}

std::string JsonDocument::escapePointerToken(const std::string& token)
{
    std::string out;
    out.reserve(token.size());
    for (char c : token) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

const char* jsonKindName(const nlohmann::json& value)
{
    switch (value.type()) {
    case nlohmann::json::value_t::object:
        return "an object";
    case nlohmann::json::value_t::array:
        return "an array";
    case nlohmann::json::value_t::string:
        return "a string";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
        return "an integer";
    case nlohmann::json::value_t::number_float:
        return "a number";
    case nlohmann::json::value_t::boolean:
        return "a boolean";
    case nlohmann::json::value_t::null:
        return "null";
    default:
        return "a value";
    }
}

} // namespace ptowb
