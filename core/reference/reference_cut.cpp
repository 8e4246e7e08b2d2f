#include "kernel/kernel_lexer.h"
#include "reference/reference_checker.h"

#include <algorithm>
#include <set>
#include <unordered_set>

namespace ptowb {

namespace {

using Tok = kernel::TokenKind;
using kernel::Token;

struct Statement
{
    int line = 0;
    std::vector<std::string> assigned; // names it binds, in order
};

struct Function
{
    int bodyCol = 0;
    std::vector<Statement> body; // the statements directly in it
    int lastLine = 0;            // its last line (blank lines and comments after it included)
};

bool isKeyword(const std::string& name)
{
    static const std::set<std::string> kKeywords{
        "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
        "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
        "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
        "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};
    return kKeywords.count(name) > 0;
}

std::vector<std::vector<Token>> logicalLines(const std::string& source)
{
    std::vector<std::vector<Token>> lines;
    std::vector<Token> current;
    Diagnostics syntax; // TorchScript reports it; the cut needs only the lines
    for (Token& t :
         kernel::tokenize(source, "reference.py", syntax, kernel::CarriageReturn::Blank)) {
        if (t.kind == Tok::Indent || t.kind == Tok::Dedent) continue; // read from columns
        if (t.kind == Tok::End || t.kind == Tok::Newline) {
            if (!current.empty()) lines.push_back(std::move(current));
            current.clear();
            continue;
        }
        current.push_back(std::move(t));
    }
    return lines;
}

bool isOp(const Token& t, const char* text)
{
    return t.kind == Tok::Op && t.text == text;
}

// The names a logical line binds with `=` at its top level: `a = ...`, `a, b = ...`,
// `a: int = ...`, `y[0] = ...` (y), each of `x = 1; z = 2`.
std::vector<std::string> assignedNames(const std::vector<Token>& line)
{
    std::vector<std::string> names;
    std::unordered_set<std::string> seen;
    std::size_t start = 0;
    while (start < line.size()) {
        std::size_t end = start, lastAssign = std::string::npos;
        int depth = 0;
        for (; end < line.size(); ++end) {
            const Token& t = line[end];
            if (t.kind == Tok::Op && (t.text == "(" || t.text == "[" || t.text == "{")) ++depth;
            if (t.kind == Tok::Op && (t.text == ")" || t.text == "]" || t.text == "}") && depth)
                --depth;
            if (depth == 0 && isOp(t, ";")) break;
            if (depth == 0 && isOp(t, "=")) lastAssign = end;
        }
        const bool statementKeyword = line[start].kind == Tok::Name && isKeyword(line[start].text);
        if (lastAssign != std::string::npos && !statementKeyword) {
            depth = 0;
            for (std::size_t k = start; k < lastAssign; ++k) {
                const Token& t = line[k];
                if (t.kind == Tok::Op && (t.text == "(" || t.text == "[" || t.text == "{")) ++depth;
                if (t.kind == Tok::Op && (t.text == ")" || t.text == "]" || t.text == "}") && depth)
                    --depth;
                if (depth == 0 && isOp(t, ":")) break; // an annotation follows
                const bool attribute = k > start && isOp(line[k - 1], ".");
                if (depth == 0 && t.kind == Tok::Name && !attribute && !isKeyword(t.text) &&
                    seen.insert(t.text).second)
                    names.push_back(t.text);
            }
        }
        start = end + 1;
    }
    return names;
}

int lineCount(const std::string& source)
{
    return int(std::count(source.begin(), source.end(), '\n')) + 1;
}

std::vector<Function> functions(const std::string& source)
{
    std::vector<Function> out;
    bool inFunction = false;
    for (const auto& line : logicalLines(source)) {
        const Token& first = line.front();
        if (first.pos.col == 1) {
            if (inFunction) out.back().lastLine = first.pos.line - 1;
            inFunction = first.kind == Tok::Name && first.text == "def";
            if (inFunction) out.emplace_back();
            continue;
        }
        if (!inFunction || !first.startsLine) continue;
        Function& f = out.back();
        if (f.bodyCol == 0) f.bodyCol = first.pos.col;
        if (first.pos.col == f.bodyCol) f.body.push_back({first.pos.line, assignedNames(line)});
    }
    if (inFunction) out.back().lastLine = lineCount(source);
    return out;
}

std::vector<std::string> splitLines(const std::string& source)
{
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (true) {
        const std::size_t nl = source.find('\n', start);
        lines.push_back(source.substr(start, nl == std::string::npos ? nl : nl - start));
        if (nl == std::string::npos) break;
        start = nl + 1;
    }
    return lines;
}

} // namespace

std::vector<int> referenceStatementLines(const std::string& source)
{
    std::vector<int> lines;
    for (const Function& f : functions(source))
        for (const Statement& s : f.body)
            lines.push_back(s.line);
    std::sort(lines.begin(), lines.end());
    lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    return lines;
}

std::string cutReferenceAfter(const std::string& source, int line)
{
    std::vector<std::string> lines = splitLines(source);
    for (const Function& f : functions(source)) {
        const auto cut = std::find_if(f.body.begin(), f.body.end(),
                                      [&](const Statement& s) { return s.line > line; });
        if (cut == f.body.end()) continue;
        std::unordered_set<std::string> seen;
        std::string message;
        for (auto s = f.body.begin(); s != cut; ++s)
            for (const std::string& name : s->assigned)
                if (seen.insert(name).second)
                    message += (message.empty() ? "" : " + ") + std::string("str(") + name + ")";
        std::string& first = lines[std::size_t(cut->line - 1)];
        const std::string indent = first.substr(0, first.find_first_not_of(" \t"));
        first = indent + "assert False, " + (message.empty() ? "\"\"" : message);
        for (int k = cut->line + 1; k <= f.lastLine && k <= int(lines.size()); ++k)
            lines[std::size_t(k - 1)].clear();
    }
    std::string out;
    for (std::size_t k = 0; k < lines.size(); ++k)
        out += lines[k] + (k + 1 < lines.size() ? "\n" : "");
    return out;
}

} // namespace ptowb
