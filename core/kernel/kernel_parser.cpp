#include "kernel/kernel_parser_impl.h"

namespace ptowb::kernel {

namespace {

// Imports outside functions and classes bind module names, also under `if` and `try`.
void collectImports(const std::vector<Stmt>& statements, Module& m)
{
    for (const Stmt& s : statements) {
        if (s.kind == StmtKind::Import)
            m.imports.insert(m.imports.end(), s.names.begin(), s.names.end());
        if (s.kind == StmtKind::Def || s.kind == StmtKind::Class) continue;
        collectImports(s.body, m);
        collectImports(s.orelse, m);
        for (const Stmt& h : s.handlers)
            collectImports(h.body, m);
    }
}

} // namespace

Parser::Parser(std::vector<Token> tokens, const std::string& file, Diagnostics& diagnostics)
    : m_tokens(std::move(tokens)), m_file(file), m_diagnostics(diagnostics)
{
}

Module Parser::module()
{
    Module m;
    while (!at(TokenKind::End)) {
        if (accept(TokenKind::Newline) || accept(TokenKind::Dedent)) continue;
        try {
            statementInto(m.statements);
        } catch (const SyntaxError& e) {
            report(e.pos, e.what(), "kernel.syntax");
            recover();
        }
    }
    collectImports(m.statements, m);
    for (const Stmt& s : m.statements)
        if (s.kind == StmtKind::Def) m.functions.push_back(*s.function);
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

bool Parser::acceptName(const char* name)
{
    if (!atName(name)) return false;
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

bool Parser::atSimpleEnd() const
{
    return at(TokenKind::Newline) || at(TokenKind::End) || at(TokenKind::Dedent) || atOp(";");
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

bool Parser::looksLikeMatch()
{
    const std::size_t start = m_at;
    const int chain = m_chain;
    bool match = false;
    try {
        next(); // match
        if (!atOp(":") && !atOp("=") && !atOp(".")) {
            starExpressions();
            match = atOp(":") && peek(1).kind == TokenKind::Newline &&
                    peek(2).kind == TokenKind::Indent && atName("case", 3);
        }
    } catch (const SyntaxError&) {
    }
    m_at = start;
    m_chain = chain;
    return match;
}

void Parser::statementInto(std::vector<Stmt>& body)
{
    const Token& t = peek();
    if (t.kind == TokenKind::Indent) throw SyntaxError(t.pos, "unexpected indent");
    if (atOp("@")) {
        body.push_back(decorated());
        return;
    }
    if (t.kind == TokenKind::Name) {
        for (const char* keyword : {"if", "while", "for", "try", "with", "def", "class", "async"})
            if (t.text == keyword) {
                body.push_back(compound());
                return;
            }
        if (t.text == "match" && looksLikeMatch()) {
            const Pos pos = next().pos;
            body.push_back(matchStatement(pos));
            return;
        }
    }
    simpleStatements(body);
}

void Parser::simpleStatements(std::vector<Stmt>& body)
{
    body.push_back(simple());
    while (acceptOp(";"))
        if (!at(TokenKind::Newline) && !at(TokenKind::End)) body.push_back(simple());
    expectNewline();
}

ExprPtr Parser::assignmentValue()
{
    return atName("yield") ? yieldExpression() : starExpressions();
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
        if (t.text == "import" || t.text == "from") return importStatement();
        s.kind = StmtKind::Other;
        if (t.text == "break" || t.text == "continue") {
            next();
            return s;
        }
        if (t.text == "return") {
            next();
            s.kind = StmtKind::Return;
            if (!atSimpleEnd()) s.value = starExpressions();
            return s;
        }
        if (t.text == "global" || t.text == "nonlocal") {
            next();
            do
                expectName("a name");
            while (acceptOp(","));
            return s;
        }
        if (t.text == "raise") {
            next();
            if (!atSimpleEnd()) s.exprs.push_back(expression());
            if (acceptName("from")) s.exprs.push_back(expression());
            return s;
        }
        if (t.text == "del") {
            next();
            s.exprs.push_back(targetList());
            return s;
        }
        if (t.text == "assert") {
            next();
            s.exprs.push_back(expression());
            if (acceptOp(",")) s.exprs.push_back(expression());
            return s;
        }
        if (t.text == "type" && peek(1).kind == TokenKind::Name && (atOp("=", 2) || atOp("[", 2))) {
            next();
            next();
            if (atOp("[")) typeParams(s.exprs);
            expectOp("=");
            s.exprs.push_back(expression());
            return s;
        }
    }
    ExprPtr first = assignmentValue();
    if (acceptOp(":")) { // annotated: `a: int = 1`, `a: int`
        s.exprs.push_back(expression());
        s.targets.push_back(first);
        if (acceptOp("=")) {
            s.kind = StmtKind::Assign;
            s.value = assignmentValue();
        } else {
            s.kind = StmtKind::Other;
        }
        return s;
    }
    static const char* const kAugmented[] = {
        "+=", "-=", "*=", "/=", "//=", "%=", "**=", "@=", "&=", "|=", "^=", "<<=", ">>="};
    for (const char* op : kAugmented)
        if (atOp(op)) {
            next();
            s.kind = StmtKind::AugAssign;
            s.op = std::string(op).substr(0, std::string(op).size() - 1);
            s.targets.push_back(first);
            s.value = assignmentValue();
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
        s.targets.push_back(assignmentValue());
    s.value = s.targets.back();
    s.targets.pop_back();
    return s;
}

Stmt Parser::importStatement()
{
    Stmt s;
    s.kind = StmtKind::Import;
    s.pos = peek().pos;
    if (acceptName("import")) {
        do {
            const std::string path = dotted();
            s.modules.push_back(path);
            if (acceptName("as"))
                s.names.push_back({expectName("a name").text, path});
            else
                s.names.push_back({path.substr(0, path.find('.')), path.substr(0, path.find('.'))});
        } while (acceptOp(","));
        return s;
    }
    next(); // from
    std::string path;
    while (atOp(".") || atOp("...")) // relative: from . import x, from ..pkg import y
        path += next().text;
    if (!atName("import"))
        path += dotted();
    else if (path.empty())
        throw SyntaxError(peek().pos, "expected a module name after 'from', found 'import'");
    if (!acceptName("import"))
        throw SyntaxError(peek().pos, "expected 'import', found " + describe(peek()));
    if (acceptOp("*")) { // binds names the checker cannot see
        s.modules.push_back(path);
        return s;
    }
    const bool paren = acceptOp("(");
    do {
        if (paren && atOp(")")) break;
        const std::string name = expectName("a name").text;
        std::string alias = name;
        if (acceptName("as")) alias = expectName("a name").text;
        const std::string full = path + (path.back() == '.' ? "" : ".") + name;
        s.names.push_back({alias, full});
        s.modules.push_back(full);
    } while (acceptOp(","));
    if (paren) expectOp(")");
    return s;
}

std::string Parser::dotted()
{
    std::string path = expectName("a module name").text;
    while (acceptOp("."))
        path += "." + expectName("a name").text;
    return path;
}

Module parseKernel(std::string_view source, const std::string& file, Diagnostics& diagnostics)
{
    Diagnostics lexical;
    std::vector<Token> tokens = tokenize(source, file, lexical);
    diagnostics.insert(diagnostics.end(), lexical.begin(), lexical.end());
    if (hasErrors(lexical)) return {}; // token errors make every later message noise
    return Parser(std::move(tokens), file, diagnostics).module();
}

namespace {

// "pypto.frontend.jit" for `@pypto.frontend.jit(...)`, "" for what is not a dotted name.
std::string dottedName(const ExprPtr& e)
{
    if (!e) return "";
    if (e->kind == ExprKind::Call && !e->kids.empty()) return dottedName(e->kids[0]);
    if (e->kind == ExprKind::Name) return e->text;
    if (e->kind == ExprKind::Attribute && !e->kids.empty()) {
        const std::string owner = dottedName(e->kids[0]);
        return owner.empty() ? "" : owner + "." + e->text;
    }
    return "";
}

} // namespace

bool isJitKernel(const Module& module, const FunctionDef& f)
{
    for (const ExprPtr& decorator : f.decorators) {
        std::string name = dottedName(decorator);
        const std::string root = name.substr(0, name.find('.'));
        for (const auto& [bound, path] : module.imports)
            if (bound == root) name = path + name.substr(root.size());
        if (name == "pypto.frontend.jit" || name == "pypto.jit") return true;
    }
    return false;
}

} // namespace ptowb::kernel
