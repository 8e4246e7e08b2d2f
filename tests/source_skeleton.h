#pragma once

// The skeleton of a generated source: its tokens with every string literal as "<lit>" and each
// comment as its text with hashes blanked. Text of the description that reached a file as data
// changes literals only, so a hostile op's files have exactly the skeletons of the same op with
// plain text; text that escaped a literal, or reached a comment, shows as a different skeleton.
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

namespace ptowb::testing {

enum class SourceLanguage
{
    Cpp,
    Python,
    CMake
};

namespace skeleton_detail {

inline bool isWordChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// A quoted literal from `quote` at text[k]: returns the index past it, or npos when unterminated.
inline std::size_t skipQuoted(const std::string& text, std::size_t k, const std::string& quote,
                              bool escapes, bool multiline)
{
    std::size_t i = k + quote.size();
    while (i < text.size()) {
        if (escapes && text[i] == '\\') {
            i += 2;
            continue;
        }
        if (text.compare(i, quote.size(), quote) == 0) return i + quote.size();
        if (!multiline && text[i] == '\n') return std::string::npos;
        ++i;
    }
    return std::string::npos;
}

// A comment as a token: its text, each run of 64 hex digits (the op's sha256) as "<sha>".
inline std::string commentToken(const std::string& text)
{
    std::string out = "<comment:";
    for (std::size_t k = 0; k < text.size();) {
        std::size_t e = k;
        while (e < text.size() && std::isxdigit(static_cast<unsigned char>(text[e])))
            ++e;
        if (e - k == 64) {
            out += "<sha>";
            k = e;
        } else {
            out += text[k++];
        }
    }
    return out + ">";
}

} // namespace skeleton_detail

// `error` says where a literal or comment does not end.
inline std::vector<std::string> sourceSkeleton(SourceLanguage language, const std::string& text,
                                               std::string& error)
{
    using namespace skeleton_detail;
    std::vector<std::string> tokens;
    std::size_t k = 0;
    auto fail = [&](const char* what) {
        error = std::string(what) + " at offset " + std::to_string(k);
        return tokens;
    };
    while (k < text.size()) {
        const char c = text[k];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++k;
            continue;
        }
        if (language == SourceLanguage::Cpp) {
            if (text.compare(k, 2, "//") == 0) {
                const std::size_t end = std::min(text.find('\n', k), text.size());
                tokens.push_back(commentToken(text.substr(k, end - k)));
                k = end;
                continue;
            }
            if (text.compare(k, 2, "/*") == 0) {
                const std::size_t end = text.find("*/", k + 2);
                if (end == std::string::npos) return fail("unterminated comment");
                tokens.push_back(commentToken(text.substr(k, end + 2 - k)));
                k = end + 2;
                continue;
            }
            // Raw strings, with any encoding prefix: R"delim( ... )delim".
            std::size_t r = k;
            while (r < text.size() && r - k < 3 &&
                   (text[r] == 'u' || text[r] == '8' || text[r] == 'U' || text[r] == 'L'))
                ++r;
            if (r + 1 < text.size() && text[r] == 'R' && text[r + 1] == '"' &&
                (k == 0 || !isWordChar(text[k - 1]))) {
                const std::size_t open = text.find('(', r + 2);
                if (open == std::string::npos) return fail("unterminated raw string");
                const std::string close = ")" + text.substr(r + 2, open - r - 2) + "\"";
                const std::size_t end = text.find(close, open + 1);
                if (end == std::string::npos) return fail("unterminated raw string");
                tokens.emplace_back("<lit>");
                k = end + close.size();
                continue;
            }
            if (c == '"' || c == '\'') {
                const std::size_t end = skipQuoted(text, k, std::string(1, c), true, false);
                if (end == std::string::npos) return fail("unterminated literal");
                tokens.emplace_back("<lit>");
                k = end;
                continue;
            }
        } else if (language == SourceLanguage::Python) {
            if (c == '#') {
                const std::size_t end = std::min(text.find('\n', k), text.size());
                tokens.push_back(commentToken(text.substr(k, end - k)));
                k = end;
                continue;
            }
            // A string with any prefix (r, b, u, f and their pairs), single or triple quoted.
            std::size_t q = k;
            while (q < text.size() && q - k < 2 &&
                   std::string("rRbBuUfF").find(text[q]) != std::string::npos)
                ++q;
            if (q < text.size() && (text[q] == '"' || text[q] == '\'') &&
                (k == 0 || !isWordChar(text[k - 1]))) {
                // A backslash keeps the next character inside even a raw string.
                const std::string triple(3, text[q]);
                const bool isTriple = text.compare(q, 3, triple) == 0;
                const std::size_t end = skipQuoted(
                    text, q, isTriple ? triple : std::string(1, text[q]), true, isTriple);
                if (end == std::string::npos) return fail("unterminated string");
                tokens.emplace_back("<lit>");
                k = end;
                continue;
            }
        } else { // CMake
            if (c == '#') {
                const std::size_t end = std::min(text.find('\n', k), text.size());
                tokens.push_back(commentToken(text.substr(k, end - k)));
                k = end;
                continue;
            }
            if (c == '"') {
                const std::size_t end = skipQuoted(text, k, "\"", true, true);
                if (end == std::string::npos) return fail("unterminated quoted argument");
                // CMake expands variables and generator expressions inside quotes: such a
                // literal is code, compared as written.
                const std::string literal = text.substr(k, end - k);
                const bool expands = literal.find("${") != std::string::npos ||
                                     literal.find("$<") != std::string::npos ||
                                     literal.find("$ENV{") != std::string::npos;
                tokens.push_back(expands ? literal : "<lit>");
                k = end;
                continue;
            }
            if (c == '[' && k + 1 < text.size() && (text[k + 1] == '[' || text[k + 1] == '=')) {
                std::size_t e = k + 1;
                while (e < text.size() && text[e] == '=')
                    ++e;
                if (e < text.size() && text[e] == '[') {
                    const std::string close = "]" + std::string(e - k - 1, '=') + "]";
                    const std::size_t end = text.find(close, e + 1);
                    if (end == std::string::npos) return fail("unterminated bracket argument");
                    tokens.emplace_back("<lit>");
                    k = end + close.size();
                    continue;
                }
            }
        }
        // A word, or one punctuation character.
        std::size_t end = k + 1;
        if (isWordChar(c))
            while (end < text.size() && isWordChar(text[end]))
                ++end;
        std::string token = text.substr(k, end - k);
        // The byte count of a C++ literal beside it (std::string(<lit>, 16)) is data too.
        if (language == SourceLanguage::Cpp && std::isdigit(static_cast<unsigned char>(c)) &&
            tokens.size() >= 2 && tokens[tokens.size() - 2] == "<lit>" && tokens.back() == ",")
            token = "<n>";
        tokens.push_back(std::move(token));
        k = end;
    }
    return tokens;
}

} // namespace ptowb::testing
