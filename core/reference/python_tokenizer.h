#pragma once

// Just enough of Python's tokenizer for reference_check.cpp: names, numbers, operators,
// brackets and logical lines, with 1-based lines and columns in code points. Strings and
// comments are skipped whole, so their text can never look like code. Header-only: one user.
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace ptowb::pytokens {

enum class Tok
{
    Name,
    Number,
    String,
    Op,
    Newline,
    End
};

struct Token
{
    Tok kind = Tok::End;
    std::string text;
    int line = 1, col = 1;
    bool startsLine = false; // first token of a logical line
};

class Tokenizer
{
public:
    explicit Tokenizer(std::string_view text) : m_text(text) {}

    Token next()
    {
        while (true) {
            skipBlanks();
            if (m_pos >= m_text.size()) return make(Tok::End, "");
            const char c = m_text[m_pos];
            if (c == '#') {
                while (m_pos < m_text.size() && m_text[m_pos] != '\n')
                    advance();
                continue;
            }
            if (c == '\\' && m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '\n') {
                advance(), advance();
                continue;
            }
            if (c == '\n') {
                advance();
                if (m_depth > 0 || m_lineEmpty) continue;
                m_lineEmpty = true;
                return make(Tok::Newline, "\n");
            }
            break;
        }
        Token t = make(Tok::Op, "");
        t.startsLine = m_lineEmpty;
        m_lineEmpty = false;
        const char c = m_text[m_pos];
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' ||
            static_cast<unsigned char>(c) >= 0x80) {
            const std::size_t start = m_pos;
            while (m_pos < m_text.size() &&
                   (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) ||
                    m_text[m_pos] == '_' || static_cast<unsigned char>(m_text[m_pos]) >= 0x80))
                advance();
            t.text = std::string(m_text.substr(start, m_pos - start));
            if (m_pos < m_text.size() && (m_text[m_pos] == '\'' || m_text[m_pos] == '"') &&
                isStringPrefix(t.text))
                return string(t);
            t.kind = Tok::Name;
            return t;
        }
        if (std::isdigit(static_cast<unsigned char>(c)) ||
            (c == '.' && m_pos + 1 < m_text.size() &&
             std::isdigit(static_cast<unsigned char>(m_text[m_pos + 1])))) {
            while (m_pos < m_text.size() &&
                   (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) ||
                    m_text[m_pos] == '.' || m_text[m_pos] == '_'))
                advance();
            t.kind = Tok::Number;
            return t;
        }
        if (c == '\'' || c == '"') return string(t);
        static const char* const kOps[] = {"**=", "//=", ">>=", "<<=", "...", "->", "**", "//",
                                           "<<",  ">>",  "<=",  ">=",  "==",  "!=", ":=", "+=",
                                           "-=",  "*=",  "/=",  "%=",  "&=",  "|=", "^=", "@="};
        for (const char* op : kOps) {
            const std::string_view spelling(op);
            if (m_text.substr(m_pos, spelling.size()) == spelling) {
                for (std::size_t k = 0; k < spelling.size(); ++k)
                    advance();
                t.text = op;
                return t;
            }
        }
        t.text = std::string(1, c);
        advance();
        if (c == '(' || c == '[' || c == '{') ++m_depth;
        if ((c == ')' || c == ']' || c == '}') && m_depth > 0) --m_depth;
        return t;
    }

    int depth() const { return m_depth; }

private:
    static bool isStringPrefix(const std::string& word)
    {
        if (word.size() > 2) return false;
        return std::all_of(word.begin(), word.end(), [](char ch) {
            return std::string_view("rRbBuUfF").find(ch) != std::string_view::npos;
        });
    }

    Token make(Tok kind, std::string text) const
    {
        Token t;
        t.kind = kind;
        t.text = std::move(text);
        t.line = m_line;
        t.col = m_col;
        return t;
    }

    void skipBlanks()
    {
        while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' ||
                                         m_text[m_pos] == '\r' || m_text[m_pos] == '\f'))
            advance();
    }

    // Columns count code points, as diagnostics do: UTF-8 continuation bytes add none.
    void advance()
    {
        const unsigned char c = static_cast<unsigned char>(m_text[m_pos++]);
        if (c == '\n') {
            ++m_line;
            m_col = 1;
        } else if ((c & 0xC0) != 0x80) {
            ++m_col;
        }
    }

    Token string(Token& t)
    {
        const char quote = m_text[m_pos];
        const bool triple = m_text.substr(m_pos, 3) == std::string(3, quote);
        for (int k = 0; k < (triple ? 3 : 1); ++k)
            advance();
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos];
            if (c == '\\' && m_pos + 1 < m_text.size()) {
                advance(), advance(); // even raw strings cannot end at an escaped quote
                continue;
            }
            if (c == quote && (!triple || m_text.substr(m_pos, 3) == std::string(3, quote))) {
                for (int k = 0; k < (triple ? 3 : 1); ++k)
                    advance();
                break;
            }
            if (c == '\n' && !triple) break; // unterminated: TorchScript reports it
            advance();
        }
        t.kind = Tok::String;
        return t;
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
    int m_line = 1, m_col = 1, m_depth = 0;
    bool m_lineEmpty = true;
};

} // namespace ptowb::pytokens
