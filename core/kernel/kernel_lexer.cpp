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
        m_tokens.push_back({kind, std::move(text), pos, end});
    }

    void error(Pos pos, std::string message, std::string code = "kernel.syntax")
    {
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
                while (m_at < m_src.size() && std::isdigit(static_cast<unsigned char>(m_src[m_at])))
                    take();
            }
        }
        if (m_at < m_src.size() &&
            (std::isalpha(static_cast<unsigned char>(m_src[m_at])) || m_src[m_at] == '_'))
            error(here(), "malformed number: unexpected '" + std::string(1, m_src[m_at]) +
                              "' after " + text);
        push(isFloat ? TokenKind::Float : TokenKind::Int, text, start, here());
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
            text.size() <= 2 && text.find_first_not_of("rRbBfFuU") == std::string::npos) {
            string(start, text.find_first_of("rR") != std::string::npos);
            return;
        }
        push(TokenKind::Name, text, start, here());
    }

    void string(Pos start, bool raw = false)
    {
        const char quote = m_src[m_at];
        const bool triple = m_src.substr(m_at, 3) == std::string(3, quote);
        for (int k = 0; k < (triple ? 3 : 1); ++k)
            advance();
        std::string value;
        while (true) {
            if (m_at >= m_src.size() || (!triple && m_src[m_at] == '\n')) {
                error(start,
                      triple ? "unterminated triple-quoted string" : "unterminated string literal");
                break;
            }
            if (triple ? m_src.substr(m_at, 3) == std::string(3, quote) : m_src[m_at] == quote) {
                for (int k = 0; k < (triple ? 3 : 1); ++k)
                    advance();
                break;
            }
            if (m_src[m_at] == '\\' && !raw && m_at + 1 < m_src.size()) {
                advance();
                const char e = m_src[m_at];
                if (e != '\n')
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
        push(TokenKind::String, value, start, here());
    }

    void op()
    {
        static const char* const kOps[] = {
            "**=", "//=", "...", "->", "**", "//", "==", "!=", "<=", ">=", "+=", "-=", "*=",
            "/=",  "%=",  "@=",  "(",  ")",  "[",  "]",  "{",  "}",  ",",  ":",  ".",  ";",
            "@",   "=",   "+",   "-",  "*",  "/",  "%",  "<",  ">",  "~",  "&",  "|",  "^"};
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
                            Diagnostics& diagnostics)
{
    return Lexer(source, file, diagnostics).run();
}

} // namespace ptowb::kernel
