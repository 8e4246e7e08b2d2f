#include "kernel/kernel_lexer.h"

#include <cctype>
#include <cstring>

namespace ptowb::kernel {

namespace {

class Lexer
{
public:
    Lexer(std::string_view source, const std::string& file, Diagnostics& diagnostics)
        : m_src(source), m_file(file), m_diagnostics(diagnostics),
          m_firstDiagnostic(diagnostics.size())
    {
    }

    std::vector<Token> run()
    {
        m_indents.push_back(0);
        if (m_src.substr(0, 3) == "\xEF\xBB\xBF") m_at = 3; // a UTF-8 byte order mark
        bool lineStart = true;
        while (m_at < m_src.size()) {
            if (lineStart) {
                lineStart = false;
                if (!indentation()) { // a blank or comment-only line: the next one starts a line
                                      // too
                    lineStart = true;
                    continue;
                }
            }
            const char c = m_src[m_at];
            if (c == '\n') {
                if (m_depth == 0) push(TokenKind::Newline, "\n", here(), here());
                advance();
                lineStart = m_depth == 0;
                continue;
            }
            if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
                advance();
                continue;
            }
            if (c == '#') {
                while (m_at < m_src.size() && m_src[m_at] != '\n')
                    advance();
                continue;
            }
            if (c == '\\' && m_at + 1 < m_src.size() &&
                (m_src[m_at + 1] == '\n' || m_src[m_at + 1] == '\r')) {
                advance();
                while (m_at < m_src.size() && m_src[m_at] != '\n')
                    advance();
                advance(); // joined: the next line continues this one
                continue;
            }
            if (std::isdigit(static_cast<unsigned char>(c)) ||
                (c == '.' && m_at + 1 < m_src.size() &&
                 std::isdigit(static_cast<unsigned char>(m_src[m_at + 1]))))
                number();
            else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' ||
                     static_cast<unsigned char>(c) >= 0x80)
                nameOrString();
            else if (c == '"' || c == '\'')
                string(here());
            else
                op();
        }
        // An unclosed bracket after another error is usually that error's echo.
        if (m_depth > 0 && m_diagnostics.size() == m_firstDiagnostic)
            error(m_openBracket, "'" + m_openText + "' was never closed");
        if (!m_tokens.empty() && m_tokens.back().kind != TokenKind::Newline &&
            m_tokens.back().kind != TokenKind::Dedent)
            push(TokenKind::Newline, "\n", here(), here());
        while (m_indents.size() > 1) {
            m_indents.pop_back();
            push(TokenKind::Dedent, "", here(), here());
        }
        push(TokenKind::End, "", here(), here());
        return std::move(m_tokens);
    }

private:
    Pos here() const { return {m_line, m_col}; }

    void advance()
    {
        if (m_at >= m_src.size()) return;
        const unsigned char c = static_cast<unsigned char>(m_src[m_at++]);
        if (c == '\n') {
            ++m_line;
            m_col = 1;
        } else if ((c & 0xC0) != 0x80) {
            ++m_col; // count code points, not bytes
        }
    }

    void push(TokenKind kind, std::string text, Pos pos, Pos end)
    {
        const bool layout = kind == TokenKind::Newline || kind == TokenKind::Indent ||
                            kind == TokenKind::Dedent || kind == TokenKind::End;
        m_tokens.push_back({kind, std::move(text), pos, end, !layout && m_lineStarts});
        if (!layout) m_lineStarts = false;
        if (kind == TokenKind::Newline) m_lineStarts = true;
    }

    // Python stops at its first error; the first kMaxErrors are plenty, and a text of 16 MiB
    // of stray characters must not become millions of diagnostics.
    void error(Pos pos, std::string message, std::string code = "kernel.syntax")
    {
        if (m_diagnostics.size() - m_firstDiagnostic >= kMaxErrors) return;
        m_diagnostics.push_back(diagnosticAt(m_file, pos, std::move(code), std::move(message)));
    }

    // Measures the indentation of a line; returns false for a blank or comment-only line.
    bool indentation()
    {
        int width = 0;
        const Pos start = here();
        while (m_at < m_src.size() &&
               (m_src[m_at] == ' ' || m_src[m_at] == '\t' || m_src[m_at] == '\f')) {
            width = m_src[m_at] == '\t' ? (width / 8 + 1) * 8 : width + 1;
            advance();
        }
        if (m_at >= m_src.size()) return false;
        const char c = m_src[m_at];
        if (c == '\n' || c == '#' || c == '\r') {
            while (m_at < m_src.size() && m_src[m_at] != '\n')
                advance();
            advance();
            return false;
        }
        if (width > m_indents.back()) {
            m_indents.push_back(width);
            push(TokenKind::Indent, "", start, here());
        } else {
            while (width < m_indents.back()) {
                m_indents.pop_back();
                push(TokenKind::Dedent, "", here(), here());
            }
            if (width != m_indents.back())
                error(here(), "unindent does not match any outer indentation level",
                      "kernel.indentation");
        }
        return true;
    }

    void number()
    {
        const Pos start = here();
        std::string text;
        bool isFloat = false;
        auto take = [&] {
            if (m_src[m_at] != '_') text += m_src[m_at];
            advance();
        };
        if (m_src[m_at] == '0' && m_at + 1 < m_src.size() &&
            std::strchr("xXoObB", m_src[m_at + 1])) {
            take();
            take();
            while (m_at < m_src.size() &&
                   (std::isxdigit(static_cast<unsigned char>(m_src[m_at])) || m_src[m_at] == '_'))
                take();
        } else {
            while (m_at < m_src.size() &&
                   (std::isdigit(static_cast<unsigned char>(m_src[m_at])) || m_src[m_at] == '_'))
                take();
            if (m_at < m_src.size() && m_src[m_at] == '.') {
                isFloat = true;
                take();
                while (
                    m_at < m_src.size() &&
                    (std::isdigit(static_cast<unsigned char>(m_src[m_at])) || m_src[m_at] == '_'))
                    take();
            }
            if (m_at < m_src.size() && (m_src[m_at] == 'e' || m_src[m_at] == 'E')) {
                isFloat = true;
                take();
                if (m_at < m_src.size() && (m_src[m_at] == '+' || m_src[m_at] == '-')) take();
                if (m_at >= m_src.size() || !std::isdigit(static_cast<unsigned char>(m_src[m_at])))
                    error(start, "malformed number: an exponent needs digits");
                while (
                    m_at < m_src.size() &&
                    (std::isdigit(static_cast<unsigned char>(m_src[m_at])) || m_src[m_at] == '_'))
                    take();
            }
        }
        if (m_at < m_src.size() && (m_src[m_at] == 'j' || m_src[m_at] == 'J')) {
            isFloat = true; // an imaginary number: the checker needs no more than "a number"
            take();
        }
        if (m_at < m_src.size() &&
            (std::isalpha(static_cast<unsigned char>(m_src[m_at])) || m_src[m_at] == '_') &&
            !keywordFollows())
            error(here(), "malformed number: unexpected '" + std::string(1, m_src[m_at]) +
                              "' after " + text);
        push(isFloat ? TokenKind::Float : TokenKind::Int, text, start, here());
    }

    // Python reads `1if x else 2` as `1 if x else 2` (with a warning): not a malformed number.
    bool keywordFollows() const
    {
        for (std::string_view k : {"and", "else", "for", "if", "in", "is", "not", "or"})
            if (m_src.substr(m_at, k.size()) == k &&
                (m_at + k.size() >= m_src.size() ||
                 !(std::isalnum(static_cast<unsigned char>(m_src[m_at + k.size()])) ||
                   m_src[m_at + k.size()] == '_')))
                return true;
        return false;
    }

    void nameOrString()
    {
        const Pos start = here();
        std::string text;
        while (m_at < m_src.size() &&
               (std::isalnum(static_cast<unsigned char>(m_src[m_at])) || m_src[m_at] == '_' ||
                static_cast<unsigned char>(m_src[m_at]) >= 0x80)) {
            text += m_src[m_at];
            advance();
        }
        if (m_at < m_src.size() && (m_src[m_at] == '"' || m_src[m_at] == '\'') &&
            text.size() <= 2 && text.find_first_not_of("rRbBfFuUtT") == std::string::npos) {
            string(start, text.find_first_of("rR") != std::string::npos,
                   text.find_first_of("fFtT") != std::string::npos);
            return;
        }
        push(TokenKind::Name, text, start, here());
    }

    void string(Pos start, bool raw = false, bool formatted = false)
    {
        std::string value;
        if (!stringBody(start, raw, formatted, value)) return;
        push(TokenKind::String, value, start, here());
    }

    // Reads a string literal from its opening quote; false (with a diagnostic) when it never
    // ends. A formatted string's replacement fields are skipped as a whole, with the brackets
    // and the strings inside them (which may reuse the outer quote, as Python 3.12 allows).
    bool stringBody(Pos start, bool raw, bool formatted, std::string& value)
    {
        // Strings nest in replacement fields: bounded like CPython's, against a stack overflow.
        if (m_nestedStrings > kMaxNestedStrings) {
            error(start, "f-string: too many nested strings");
            return false;
        }
        ++m_nestedStrings;
        const bool ended = stringTail(start, raw, formatted, value);
        --m_nestedStrings;
        return ended;
    }

    bool stringTail(Pos start, bool raw, bool formatted, std::string& value)
    {
        const char quote = m_src[m_at];
        const bool triple = m_src.substr(m_at, 3) == std::string(3, quote);
        for (int k = 0; k < (triple ? 3 : 1); ++k)
            advance();
        while (true) {
            if (m_at >= m_src.size() || (!triple && m_src[m_at] == '\n')) {
                error(start,
                      triple ? "unterminated triple-quoted string" : "unterminated string literal");
                return false;
            }
            if (triple ? m_src.substr(m_at, 3) == std::string(3, quote) : m_src[m_at] == quote) {
                for (int k = 0; k < (triple ? 3 : 1); ++k)
                    advance();
                return true;
            }
            if (formatted && (m_src[m_at] == '{' || m_src[m_at] == '}')) {
                const char brace = m_src[m_at];
                advance();
                if (m_at < m_src.size() && m_src[m_at] == brace) { // {{ and }} are literal
                    value += brace;
                    advance();
                } else if (brace == '{' && !replacementField(start)) {
                    return false;
                }
                continue;
            }
            if (m_src[m_at] == '\\' && m_at + 1 < m_src.size()) {
                advance();
                const char e = m_src[m_at];
                // A backslash escapes no brace of an f-string; in a raw string it keeps itself
                // and escapes only a quote, a backslash or the end of the line.
                if ((formatted && (e == '{' || e == '}')) ||
                    (raw && e != quote && e != '\\' && e != '\n')) {
                    value += '\\';
                    continue;
                }
                if (raw)
                    value += std::string("\\") + e;
                else if (e != '\n')
                    value += e == 'n'   ? '\n'
                             : e == 't' ? '\t'
                             : e == 'r' ? '\r'
                             : e == '0' ? '\0'
                                        : e; // a backslash-newline joins lines
                advance();
                continue;
            }
            value += m_src[m_at];
            advance();
        }
    }

    // Skips `{expression!r:spec}` after its `{`; the format spec may hold nested fields.
    bool replacementField(Pos start)
    {
        int depth = 0;
        bool spec = false;
        while (m_at < m_src.size()) {
            const char c = m_src[m_at];
            if (spec) {
                if (c == '{') {
                    advance();
                    if (m_nestedStrings > kMaxNestedStrings) {
                        error(start, "f-string: too many nested fields");
                        return false;
                    }
                    ++m_nestedStrings;
                    const bool closed = replacementField(start);
                    --m_nestedStrings;
                    if (!closed) return false;
                    continue;
                }
                if (c == '}') {
                    advance();
                    return true;
                }
                if (c == '\n') break;
                advance();
                continue;
            }
            if (c == '"' || c == '\'') {
                std::string ignored;
                std::size_t p = m_at;
                while (p > 0 && std::isalpha(static_cast<unsigned char>(m_src[p - 1])))
                    --p;
                const std::string_view prefix = m_src.substr(p, m_at - p);
                if (!stringBody(here(), prefix.find_first_of("rR") != std::string_view::npos,
                                prefix.find_first_of("fFtT") != std::string_view::npos, ignored))
                    return false;
                continue;
            }
            if (c == '(' || c == '[' || c == '{') ++depth;
            if (c == ')' || c == ']') --depth;
            if (c == '}' && depth-- == 0) {
                advance();
                return true;
            }
            if (c == ':' && depth == 0) spec = true;
            advance();
        }
        error(start, "f-string: expecting '}'");
        return false;
    }

    void op()
    {
        static const char* const kOps[] = {
            "**=", "//=", "...", "<<=", ">>=", "->", "**", "//", "==", "!=", "<=", ">=",
            "+=",  "-=",  "*=",  "/=",  "%=",  "@=", ":=", "<<", ">>", "&=", "|=", "^=",
            "(",   ")",   "[",   "]",   "{",   "}",  ",",  ":",  ".",  ";",  "@",  "=",
            "+",   "-",   "*",   "/",   "%",   "<",  ">",  "~",  "&",  "|",  "^"};
        const Pos start = here();
        for (const char* candidate : kOps) {
            const std::string_view text(candidate);
            if (m_src.substr(m_at, text.size()) != text) continue;
            for (std::size_t k = 0; k < text.size(); ++k)
                advance();
            if (text == "(" || text == "[" || text == "{") {
                if (m_depth++ == 0) {
                    m_openBracket = start;
                    m_openText = std::string(text);
                }
            } else if (text == ")" || text == "]" || text == "}") {
                if (m_depth == 0)
                    error(start, "unmatched '" + std::string(text) + "'");
                else
                    --m_depth;
            }
            push(TokenKind::Op, std::string(text), start, here());
            return;
        }
        error(start, std::string("invalid character '") + m_src[m_at] + "'");
        advance();
    }

    static constexpr std::size_t kMaxErrors = 100;
    static constexpr int kMaxNestedStrings = 150;
    bool m_lineStarts = true; // the next token that is no layout starts a logical line
    int m_nestedStrings = 0;
    std::string_view m_src;
    const std::string& m_file;
    Diagnostics& m_diagnostics;
    std::size_t m_firstDiagnostic;
    std::size_t m_at = 0;
    int m_line = 1;
    int m_col = 1;
    int m_depth = 0;
    Pos m_openBracket;
    std::string m_openText;
    std::vector<int> m_indents;
    std::vector<Token> m_tokens;
};

} // namespace

Diagnostic diagnosticAt(const std::string& file, Pos pos, std::string code, std::string message)
{
    Diagnostic d;
    d.file = file;
    d.line = pos.line;
    d.col = pos.col;
    d.endLine = pos.line;
    d.endCol = pos.col + 1;
    d.code = std::move(code);
    d.message = std::move(message);
    return d;
}

std::vector<Token> tokenize(std::string_view source, const std::string& file,
                            Diagnostics& diagnostics, CarriageReturn carriageReturn)
{
    if (source.find('\r') == std::string_view::npos) return Lexer(source, file, diagnostics).run();
    std::string lf;
    lf.reserve(source.size());
    for (std::size_t k = 0; k < source.size(); ++k)
        if (source[k] != '\r')
            lf += source[k];
        else if (carriageReturn == CarriageReturn::Blank)
            lf += ' '; // in its place, so lines and columns stay the text's
        else if (k + 1 >= source.size() || source[k + 1] != '\n')
            lf += '\n'; // Python reads \r\n and a lone \r as \n, also after a backslash
    return Lexer(lf, file, diagnostics).run();
}

} // namespace ptowb::kernel
