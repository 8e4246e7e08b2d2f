#include "reference/reference_check.h"

#include "kernel/kernel_lexer.h"

#include <algorithm>
#include <string_view>
#include <vector>

namespace ptowb {

namespace {

using Tok = kernel::TokenKind;
using kernel::Token;

struct Forbidden
{
    const char* name;
    const char* why;
};

// Attributes of torch (or math, which the workbench resolves like torch) that reach outside
// the op. Matched on every component of a dotted name, so torch.jit.save is caught too.
constexpr Forbidden kForbiddenAttributes[] = {
    {"save", "writes files"},
    {"load", "reads files"},
    {"from_file", "reads and writes files"},
    {"serialization", "reads and writes files"},
    {"hub", "downloads and runs code"},
    {"utils", "builds and loads native code"},
    {"ops", "calls operators outside the reference's own (the operator registry)"},
    {"classes", "uses custom classes outside the reference"},
    {"library", "changes the operator registry"},
    {"_C", "reaches torch's internals"},
    {"_ops", "reaches torch's internals"},
    {"_classes", "reaches torch's internals"},
    {"multiprocessing", "starts processes"},
    {"distributed", "opens connections to other processes"},
    {"set_num_threads", "changes the state of the process"},
    {"set_num_interop_threads", "changes the state of the process"},
    {"manual_seed", "changes the state of the process"},
    {"seed", "changes the state of the process"},
    {"set_rng_state", "changes the state of the process"},
    {"set_default_dtype", "changes the state of the process"},
    {"set_printoptions", "changes the state of the process"},
};

// Python's ways to reach anything by a computed name or to run text as code.
constexpr const char* kForbiddenBuiltins[] = {
    "getattr",    "setattr", "delattr", "eval", "exec",  "compile",   "open",
    "__import__", "globals", "locals",  "vars", "input", "breakpoint"};

const char* forbiddenAttribute(const std::string& name)
{
    for (const auto& f : kForbiddenAttributes)
        if (name == f.name) return f.why;
    return nullptr;
}

bool allowedModule(const std::string& module)
{
    return module == "torch" || module == "torch.nn" || module == "torch.nn.functional" ||
           module == "math" || module == "typing";
}

bool isOperator(const Token& t)
{
    if (t.kind == Tok::Name)
        return t.text == "and" || t.text == "or" || t.text == "not" || t.text == "in" ||
               t.text == "is" || t.text == "if";
    if (t.kind != Tok::Op) return false;
    static const std::string_view kOps[] = {"+", "-", "*",  "/",  "//", "%",  "**",
                                            "@", "&", "|",  "^",  "~",  "<<", ">>",
                                            "<", ">", "<=", ">=", "==", "!=", "."};
    return std::find(std::begin(kOps), std::end(kOps), t.text) != std::end(kOps);
}

class Checker
{
public:
    Checker(const std::string& source, const std::string& file) : m_source(source), m_file(file) {}

    Diagnostics run()
    {
        // TorchScript reports what does not tokenize; these checks read the tokens there are.
        Diagnostics syntax;
        std::vector<Token> tokens =
            kernel::tokenize(m_source, m_file, syntax, kernel::CarriageReturn::Blank);
        std::vector<Token> statement;
        std::vector<int> indents{0};
        int depth = 0; // of brackets
        bool indentReported = false, bracketReported = false;
        for (Token& t : tokens) {
            if (t.kind == Tok::Indent || t.kind == Tok::Dedent) continue; // read from columns
            if (t.kind == Tok::Op && (t.text == "(" || t.text == "[" || t.text == "{")) ++depth;
            if (t.kind == Tok::Op && (t.text == ")" || t.text == "]" || t.text == "}") && depth > 0)
                --depth;
            if (t.kind == Tok::Op && (t.text == "(" || t.text == "[" || t.text == "{") &&
                depth > kMaxReferenceBrackets && !bracketReported) {
                error(t, "reference.too-deep",
                      "brackets nest more than " + std::to_string(kMaxReferenceBrackets) +
                          " levels deep");
                bracketReported = true;
            }
            if (bracketReported) {
                if (t.kind == Tok::End) break;
                continue; // the rest of the file cannot be read as statements
            }
            if (t.startsLine) {
                while (t.pos.col - 1 < indents.back())
                    indents.pop_back();
                if (t.pos.col - 1 > indents.back()) indents.push_back(t.pos.col - 1);
                if (int(indents.size()) - 1 > kMaxReferenceIndents && !indentReported) {
                    error(t, "reference.too-deep",
                          "blocks nest more than " + std::to_string(kMaxReferenceIndents) +
                              " levels deep");
                    indentReported = true;
                }
            }
            const bool endsStatement = t.kind == Tok::End || t.kind == Tok::Newline ||
                                       (t.kind == Tok::Op && t.text == ";" && depth == 0);
            if (!endsStatement) {
                statement.push_back(std::move(t));
                continue;
            }
            checkStatement(statement, t);
            statement.clear();
            if (t.kind == Tok::End) break;
        }
        std::stable_sort(m_diagnostics.begin(), m_diagnostics.end(),
                         [](const Diagnostic& a, const Diagnostic& b) {
                             return a.line != b.line ? a.line < b.line : a.col < b.col;
                         });
        return std::move(m_diagnostics);
    }

private:
    void error(const Token& at, std::string code, std::string message)
    {
        Diagnostic d;
        d.file = m_file;
        d.line = d.endLine = at.pos.line;
        d.col = at.pos.col;
        d.endCol = at.pos.col + std::max(1, int(at.text.size()));
        d.code = std::move(code);
        d.message = std::move(message);
        m_diagnostics.push_back(std::move(d));
    }

    // `terminator` is what ended the statement: a newline, the end of the file, or ';'.
    void checkStatement(const std::vector<Token>& s, const Token& terminator)
    {
        if (s.empty()) return;
        const bool isImport =
            s[0].kind == Tok::Name && (s[0].text == "import" || s[0].text == "from");
        if (isImport) {
            checkImport(s);
            // One placement error per line: `import a; import b` says it at the first ';'.
            if ((!s[0].startsLine || s[0].pos.col != 1) && s[0].pos.line != m_placementReported) {
                error(s[0], "reference.import",
                      "an import must start a line of its own, at the top level of the file");
                m_placementReported = s[0].pos.line;
            }
            if (terminator.kind == Tok::Op && terminator.pos.line != m_placementReported) {
                error(terminator, "reference.import",
                      "an import must be on a line of its own: import lines are not compiled, so "
                      "the rest of this line would vanish");
                m_placementReported = terminator.pos.line;
            }
            return;
        }
        int operators = 0;
        for (std::size_t k = 0; k < s.size(); ++k) {
            const Token& t = s[k];
            if (isOperator(t) && ++operators == kMaxReferenceOperators + 1)
                error(t, "reference.too-long",
                      "this statement has more than " + std::to_string(kMaxReferenceOperators) +
                          " operators; split it");
            if (t.kind != Tok::Name) continue;
            const bool attribute = k > 0 && s[k - 1].kind == Tok::Op && s[k - 1].text == ".";
            if (attribute) continue;
            if (std::find(std::begin(kForbiddenBuiltins), std::end(kForbiddenBuiltins), t.text) !=
                std::end(kForbiddenBuiltins)) {
                error(t, "reference.forbidden",
                      "'" + t.text +
                          "' is not allowed in the reference (TorchScript has no dynamic lookups "
                          "or code from text)");
                continue;
            }
            if (!isModuleName(t.text)) continue;
            std::string path = t.text;
            for (std::size_t j = k + 1; j + 1 < s.size() && s[j].kind == Tok::Op &&
                                        s[j].text == "." && s[j + 1].kind == Tok::Name;
                 j += 2) {
                path += "." + s[j + 1].text;
                if (const char* why = forbiddenAttribute(s[j + 1].text)) {
                    error(s[j + 1], "reference.forbidden",
                          "'" + path + "' " + why +
                              "; the reference may only compute its outputs from its inputs");
                    break;
                }
            }
        }
    }

    bool isModuleName(const std::string& name) const
    {
        return name == "torch" || name == "math" ||
               std::find(m_moduleAliases.begin(), m_moduleAliases.end(), name) !=
                   m_moduleAliases.end();
    }

    // Reads a dotted module name from s[k]; returns it and moves k past it.
    static std::string dotted(const std::vector<Token>& s, std::size_t& k)
    {
        std::string out;
        while (k < s.size() && s[k].kind == Tok::Name) {
            out += s[k++].text;
            if (k < s.size() && s[k].kind == Tok::Op && s[k].text == ".") {
                out += ".";
                ++k;
            } else {
                break;
            }
        }
        return out;
    }

    void moduleError(const Token& at, const std::string& module)
    {
        error(at, "reference.import",
              "the reference may import only torch, torch.nn, torch.nn.functional, math and "
              "typing, not '" +
                  module + "': it is compiled as TorchScript, never run as Python");
    }

    void checkImport(const std::vector<Token>& s)
    {
        std::size_t k = 1;
        if (s[0].text == "import") {
            while (k < s.size()) {
                const Token& at = s[k];
                const std::string module = dotted(s, k);
                if (module.empty()) return; // a syntax error: TorchScript reports it
                if (!allowedModule(module)) moduleError(at, module);
                if (k + 1 < s.size() && s[k].text == "as") {
                    // import torch as t, import torch.nn.functional as F
                    if (allowedModule(module) && module != "typing")
                        m_moduleAliases.push_back(s[k + 1].text);
                    k += 2;
                }
                if (k >= s.size() || s[k].text != ",") return;
                ++k;
            }
            return;
        }
        if (k >= s.size()) return; // a bare `from`: TorchScript reports the syntax error
        const Token& at = s[k];
        const std::string module = dotted(s, k);
        if (!allowedModule(module)) {
            moduleError(at, module);
            return;
        }
        if (k >= s.size() || s[k].text != "import") return;
        for (++k; k < s.size(); ++k) {
            const Token& name = s[k];
            if (name.kind == Tok::Op && name.text == "*") {
                error(name, "reference.import", "import the names the reference uses, not '*'");
                continue;
            }
            if (name.kind != Tok::Name) continue;
            std::string bound = name.text;
            if (k + 2 < s.size() && s[k + 1].text == "as") bound = s[k += 2].text;
            if (const char* why = forbiddenAttribute(name.text))
                error(name, "reference.forbidden",
                      "'" + module + "." + name.text + "' " + why +
                          "; the reference may only compute its outputs from its inputs");
            else if (allowedModule(module + "." + name.text))
                m_moduleAliases.push_back(
                    bound); // from torch import nn; from torch.nn import functional as F
        }
    }

    const std::string& m_source;
    const std::string& m_file;
    Diagnostics m_diagnostics;
    int m_placementReported = 0; // the last line that has an import placement error
    std::vector<std::string>
        m_moduleAliases; // names bound to torch, torch.nn, torch.nn.functional or math
};

} // namespace

Diagnostics checkReferenceSource(const std::string& source, const std::string& fileName)
{
    return Checker(source, fileName).run();
}

} // namespace ptowb
