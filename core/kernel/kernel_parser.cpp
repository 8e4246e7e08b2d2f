#include "kernel/kernel_parser_impl.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace ptowb::kernel {

Parser::Parser(std::vector<Token> tokens, const std::string& file, Diagnostics& diagnostics)
    : m_tokens(std::move(tokens)), m_file(file), m_diagnostics(diagnostics)
{
}

Module Parser::module()
{
    Module m;
    while (!at(TokenKind::End)) {
        if (accept(TokenKind::Newline) || accept(TokenKind::Indent) || accept(TokenKind::Dedent))
            continue;
        try {
            topLevel(m);
        } catch (const SyntaxError& e) {
            report(e.pos, e.what(), "kernel.syntax");
            recover();
        }
    }
    return m;
}

bool Parser::accept(TokenKind kind)
{
    if (!at(kind)) return false;
    next();
    return true;
}

bool Parser::acceptOp(const char* op)
{
    if (!atOp(op)) return false;
    next();
    return true;
}

std::string Parser::describe(const Token& t) const
{
    switch (t.kind) {
    case TokenKind::Newline:
        return "end of line";
    case TokenKind::Indent:
        return "an indented block";
    case TokenKind::Dedent:
        return "the end of the block";
    case TokenKind::End:
        return "the end of the file";
    case TokenKind::String:
        return "a string";
    default:
        return "'" + t.text + "'";
    }
}

const Token& Parser::expectOp(const char* op)
{
    if (!atOp(op))
        throw SyntaxError(peek().pos,
                          std::string("expected '") + op + "', found " + describe(peek()));
    return next();
}

const Token& Parser::expectName(const char* what)
{
    if (!at(TokenKind::Name))
        throw SyntaxError(peek().pos,
                          std::string("expected ") + what + ", found " + describe(peek()));
    return next();
}

void Parser::expectNewline()
{
    if (accept(TokenKind::Newline) || at(TokenKind::End) || at(TokenKind::Dedent)) return;
    throw SyntaxError(peek().pos, "expected the end of the statement, found " + describe(peek()));
}

void Parser::recover()
{
    int depth = 0;
    while (!at(TokenKind::End)) {
        if (at(TokenKind::Indent)) ++depth;
        if (at(TokenKind::Dedent) && --depth < 0) return;
        if (next().kind == TokenKind::Newline && depth <= 0) break;
    }
    if (!at(TokenKind::Indent)) return;
    depth = 0;
    while (!at(TokenKind::End)) {
        const TokenKind kind = next().kind;
        if (kind == TokenKind::Indent) ++depth;
        if (kind == TokenKind::Dedent && --depth == 0) return;
    }
}

void Parser::report(Pos pos, const std::string& message, const std::string& code)
{
    m_diagnostics.push_back(diagnosticAt(m_file, pos, code, message));
}

void Parser::topLevel(Module& m)
{
    if (atName("import")) {
        next();
        do {
            std::string path = dotted();
            std::string alias = path.substr(0, path.find('.'));
            if (atName("as")) {
                next();
                alias = expectName("a name").text;
                m.imports.push_back({alias, path});
            } else {
                m.imports.push_back({alias, alias});
            }
        } while (acceptOp(","));
        expectNewline();
        return;
    }
    if (atName("from")) {
        next();
        const std::string path = dotted();
        if (!atName("import"))
            throw SyntaxError(peek().pos, "expected 'import', found " + describe(peek()));
        next();
        const bool paren = acceptOp("(");
        do {
            const std::string name = expectName("a name").text;
            std::string alias = name;
            if (atName("as")) {
                next();
                alias = expectName("a name").text;
            }
            m.imports.push_back({alias, path + "." + name});
        } while (acceptOp(",") && !atOp(")"));
        if (paren) expectOp(")");
        expectNewline();
        return;
    }
    std::vector<ExprPtr> decorators;
    while (atOp("@")) {
        next();
        decorators.push_back(expression());
        expectNewline();
    }
    if (atName("def")) {
        m.functions.push_back(functionDef(std::move(decorators)));
        return;
    }
    if (!decorators.empty())
        throw SyntaxError(peek().pos, "a decorator must be followed by a function definition");
    // A docstring or constant is harmless; other top-level code is outside the subset.
    const Stmt s = statement();
    if (s.kind != StmtKind::ExprStmt || !s.value || s.value->kind != ExprKind::Str)
        if (s.kind != StmtKind::Pass)
            report(s.pos,
                   "not supported by the simulator: top-level statements other than imports and "
                   "functions",
                   "kernel.unsupported");
}

std::string Parser::dotted()
{
    std::string path = expectName("a module name").text;
    while (acceptOp("."))
        path += "." + expectName("a name").text;
    return path;
}

FunctionDef Parser::functionDef(std::vector<ExprPtr> decorators)
{
    FunctionDef f;
    f.pos = next().pos; // def
    f.decorators = std::move(decorators);
    f.name = expectName("a function name").text;
    expectOp("(");
    while (!atOp(")")) {
        if (atOp("*") || atOp("**") || atOp("/")) {
            report(peek().pos,
                   "not supported by the simulator: '" + peek().text + "' in a kernel's parameters",
                   "kernel.unsupported");
            next();
            if (at(TokenKind::Name)) next();
        } else {
            Param p;
            const Token& name = expectName("a parameter name");
            p.name = name.text;
            p.pos = name.pos;
            if (acceptOp(":")) p.annotation = expression();
            if (acceptOp("=")) p.defaultValue = expression();
            f.params.push_back(std::move(p));
        }
        if (!acceptOp(",")) break;
    }
    expectOp(")");
    if (acceptOp("->")) expression();
    expectOp(":");
    f.body = suite();
    return f;
}

std::vector<Stmt> Parser::suite()
{
    std::vector<Stmt> body;
    if (!accept(TokenKind::Newline)) { // `if c: x = 1` on one line
        simpleStatements(body);
        return body;
    }
    while (accept(TokenKind::Newline)) {
    }
    if (!accept(TokenKind::Indent)) throw SyntaxError(peek().pos, "expected an indented block");
    while (!at(TokenKind::Dedent) && !at(TokenKind::End)) {
        if (accept(TokenKind::Newline)) continue;
        try {
            compoundOrSimple(body);
        } catch (const SyntaxError& e) {
            report(e.pos, e.what(), "kernel.syntax");
            recover();
        }
    }
    accept(TokenKind::Dedent);
    return body;
}

void Parser::compoundOrSimple(std::vector<Stmt>& body)
{
    const Token& t = peek();
    if (t.kind == TokenKind::Name &&
        (t.text == "for" || t.text == "if" || t.text == "while" || t.text == "with" ||
         t.text == "def" || t.text == "try" || t.text == "class")) {
        body.push_back(compound());
        return;
    }
    if (atOp("@")) {
        report(t.pos, "not supported by the simulator: nested decorated functions",
               "kernel.unsupported");
        recover();
        return;
    }
    simpleStatements(body);
}

Stmt Parser::compound()
{
    const Token keyword = next();
    Stmt s;
    s.pos = keyword.pos;
    if (keyword.text == "for") {
        s.kind = StmtKind::For;
        s.targets.push_back(targetList());
        if (!atName("in"))
            throw SyntaxError(peek().pos, "expected 'in', found " + describe(peek()));
        next();
        s.value = expression();
        expectOp(":");
        s.body = suite();
        if (atName("else")) {
            report(peek().pos, "not supported by the simulator: 'else' after a loop",
                   "kernel.unsupported");
            next();
            expectOp(":");
            suite();
        }
        return s;
    }
    if (keyword.text == "if" || keyword.text == "elif") {
        s.kind = StmtKind::If;
        s.value = expression();
        expectOp(":");
        s.body = suite();
        if (atName("elif")) {
            Stmt nested = compound(); // parsed as `else: if ...`
            nested.kind = StmtKind::If;
            s.orelse.push_back(std::move(nested));
        } else if (atName("else")) {
            next();
            expectOp(":");
            s.orelse = suite();
        }
        return s;
    }
    // while, with, try, def, class: outside the subset; skip the whole construct.
    s.kind = StmtKind::Unsupported;
    s.op = keyword.text == "def" ? "nested functions" : "'" + keyword.text + "' statements";
    report(keyword.pos, "not supported by the simulator: " + s.op, "kernel.unsupported");
    int depth = 0;
    while (!at(TokenKind::End) && !(depth == 0 && atOp(":"))) {
        if (atOp("(") || atOp("[") || atOp("{")) ++depth;
        if (atOp(")") || atOp("]") || atOp("}")) --depth;
        next();
    }
    if (acceptOp(":")) {
        const std::size_t before = m_diagnostics.size();
        suite();
        m_diagnostics.resize(before); // the block is skipped as a whole
    }
    while (atName("else") || atName("elif") || atName("except") || atName("finally")) {
        while (!at(TokenKind::End) && !atOp(":"))
            next();
        expectOp(":");
        const std::size_t before = m_diagnostics.size();
        suite();
        m_diagnostics.resize(before);
    }
    return s;
}

void Parser::simpleStatements(std::vector<Stmt>& body)
{
    body.push_back(simple());
    while (acceptOp(";"))
        if (!at(TokenKind::Newline) && !at(TokenKind::End)) body.push_back(simple());
    expectNewline();
}

Stmt Parser::statement()
{
    std::vector<Stmt> body;
    compoundOrSimple(body);
    return body.empty() ? Stmt{} : body.front();
}

Stmt Parser::simple()
{
    Stmt s;
    s.pos = peek().pos;
    const Token& t = peek();
    if (t.kind == TokenKind::Name) {
        if (t.text == "pass") {
            next();
            s.kind = StmtKind::Pass;
            return s;
        }
        if (t.text == "return") {
            next();
            s.kind = StmtKind::Return;
            if (!at(TokenKind::Newline) && !atOp(";") && !at(TokenKind::End)) s.value = testList();
            return s;
        }
        static const char* const kUnsupported[] = {"break",  "continue", "while",    "assert",
                                                   "del",    "global",   "nonlocal", "raise",
                                                   "import", "from",     "yield",    "lambda"};
        for (const char* word : kUnsupported)
            if (t.text == word) {
                s.kind = StmtKind::Unsupported;
                s.op = "'" + t.text + "' statements";
                report(t.pos,
                       "not supported by the simulator: " + s.op +
                           (t.text == "import" || t.text == "from" ? " inside a function" : ""),
                       "kernel.unsupported");
                while (!at(TokenKind::Newline) && !at(TokenKind::End) && !atOp(";"))
                    next();
                return s;
            }
    }
    ExprPtr first = testList();
    if (acceptOp(":")) { // annotated assignment `a: int = 1`
        expression();
        if (!acceptOp("=")) {
            s.kind = StmtKind::Pass;
            return s;
        }
        s.kind = StmtKind::Assign;
        s.targets.push_back(first);
        s.value = testList();
        return s;
    }
    static const char* const kAugmented[] = {"+=", "-=", "*=", "/=", "//=", "%=", "**=", "@="};
    for (const char* op : kAugmented)
        if (atOp(op)) {
            next();
            s.kind = StmtKind::AugAssign;
            s.op = std::string(op).substr(0, std::string(op).size() - 1);
            s.targets.push_back(first);
            s.value = testList();
            return s;
        }
    if (!atOp("=")) {
        s.kind = StmtKind::ExprStmt;
        s.value = first;
        return s;
    }
    s.kind = StmtKind::Assign;
    s.targets.push_back(first);
    while (acceptOp("="))
        s.targets.push_back(testList());
    s.value = s.targets.back();
    s.targets.pop_back();
    return s;
}

Module parseKernel(std::string_view source, const std::string& file, Diagnostics& diagnostics)
{
    Diagnostics lexical;
    std::vector<Token> tokens = tokenize(source, file, lexical);
    diagnostics.insert(diagnostics.end(), lexical.begin(), lexical.end());
    if (hasErrors(lexical)) return {}; // token errors make every later message noise
    return Parser(std::move(tokens), file, diagnostics).module();
}

} // namespace ptowb::kernel
