// Compound statements: blocks, if/while/for/try/with, functions, classes, decorators, match.
#include "kernel/kernel_parser_impl.h"

namespace ptowb::kernel {

namespace {

// Counts a nesting level for as long as a block or pattern is being read, also when a syntax
// error leaves it early.
struct Level
{
    Level(int& counter, int limit, Pos pos) : value(counter)
    {
        if (++value > limit) {
            --value;
            throw SyntaxError(pos, "too many levels of indentation");
        }
    }
    ~Level() { --value; }
    int& value;
};

struct Flag
{
    Flag(bool& flag, bool value) : target(flag), saved(flag) { target = value; }
    ~Flag() { target = saved; }
    bool& target;
    bool saved;
};

} // namespace

std::vector<Stmt> Parser::suite()
{
    std::vector<Stmt> body;
    if (!accept(TokenKind::Newline)) { // `if c: x = 1` on one line
        simpleStatements(body);
        return body;
    }
    while (accept(TokenKind::Newline)) {
    }
    if (!at(TokenKind::Indent)) throw SyntaxError(peek().pos, "expected an indented block");
    const Level level(m_blocks, kMaxBlocks, peek().pos);
    next();
    while (!at(TokenKind::Dedent) && !at(TokenKind::End)) {
        if (accept(TokenKind::Newline)) continue;
        try {
            statementInto(body);
        } catch (const SyntaxError& e) {
            report(e.pos, e.what(), "kernel.syntax");
            recover();
        }
    }
    accept(TokenKind::Dedent);
    return body;
}

Stmt Parser::compound()
{
    const Token keyword = next();
    const Pos pos = keyword.pos;
    if (keyword.text == "async") {
        if (acceptName("def")) return functionDef({}, pos);
        if (acceptName("for")) return forStatement(pos);
        if (acceptName("with")) return withStatement(pos);
        throw SyntaxError(peek().pos, "expected 'def', 'for' or 'with' after 'async'");
    }
    if (keyword.text == "def") return functionDef({}, pos);
    if (keyword.text == "class") return classDef({}, pos);
    if (keyword.text == "for") return forStatement(pos);
    if (keyword.text == "try") return tryStatement(pos);
    if (keyword.text == "with") return withStatement(pos);
    Stmt s;
    s.pos = pos;
    s.kind = keyword.text == "while" ? StmtKind::While : StmtKind::If;
    s.value = namedExpression();
    expectOp(":");
    s.body = suite();
    if (s.kind == StmtKind::If && atName("elif")) {
        Stmt nested = compound(); // parsed as `else: if ...`
        nested.kind = StmtKind::If;
        s.orelse.push_back(std::move(nested));
    } else if (acceptName("else")) {
        expectOp(":");
        s.orelse = suite();
    }
    return s;
}

Stmt Parser::decorated()
{
    const Pos pos = peek().pos;
    std::vector<ExprPtr> decorators;
    while (acceptOp("@")) {
        decorators.push_back(namedExpression());
        expectNewline();
    }
    const Pos at = peek().pos;
    if (acceptName("def")) return functionDef(std::move(decorators), at);
    if (acceptName("class")) return classDef(std::move(decorators), at);
    if (atName("async") && atName("def", 1)) {
        next();
        next();
        return functionDef(std::move(decorators), at);
    }
    throw SyntaxError(peek().pos, "expected a function or class definition after the decorator "
                                  "at line " +
                                      std::to_string(pos.line));
}

Stmt Parser::functionDef(std::vector<ExprPtr> decorators, Pos pos)
{
    auto f = std::make_shared<FunctionDef>();
    f->pos = pos;
    f->decorators = std::move(decorators);
    f->name = expectName("a function name").text;
    std::vector<ExprPtr> ignored;
    if (atOp("[")) typeParams(ignored);
    expectOp("(");
    f->params = parameters(")", true);
    expectOp(")");
    if (acceptOp("->")) f->returns = expression();
    expectOp(":");
    f->body = suite();
    Stmt s;
    s.kind = StmtKind::Def;
    s.pos = pos;
    s.function = std::move(f);
    return s;
}

Stmt Parser::classDef(std::vector<ExprPtr> decorators, Pos pos)
{
    Stmt s;
    s.kind = StmtKind::Class;
    s.pos = pos;
    s.exprs = std::move(decorators);
    s.op = expectName("a class name").text;
    if (atOp("[")) typeParams(s.exprs);
    if (acceptOp("(")) {
        Expr bases;
        arguments(bases);
        expectOp(")");
        s.exprs.insert(s.exprs.end(), bases.kids.begin(), bases.kids.end());
        for (const Keyword& k : bases.keywords)
            s.exprs.push_back(k.value);
    }
    expectOp(":");
    s.body = suite();
    return s;
}

// `[T, *Ts, **P, U: int = str]` after a function, class or type alias name.
void Parser::typeParams(std::vector<ExprPtr>& into)
{
    expectOp("[");
    while (!atOp("]")) {
        if (!acceptOp("*")) acceptOp("**");
        expectName("a type parameter");
        if (acceptOp(":")) into.push_back(expression());
        if (acceptOp("=")) into.push_back(atOp("*") ? starExpression() : expression());
        if (!acceptOp(",")) break;
    }
    expectOp("]");
}

std::vector<Param> Parser::parameters(const char* close, bool annotations)
{
    std::vector<Param> params;
    while (!atOp(close)) {
        if (acceptOp("/")) { // the positional-only marker
        } else if (atOp("*") && (atOp(",", 1) || atOp(close, 1))) {
            next(); // the keyword-only marker
        } else {
            Param p;
            if (atOp("*") || atOp("**")) p.star = next().text;
            const Token& name = expectName("a parameter name");
            p.name = name.text;
            p.pos = name.pos;
            if (annotations && acceptOp(":"))
                p.annotation = p.star == "*" ? starExpression() : expression();
            if (p.star.empty() && acceptOp("=")) p.defaultValue = expression();
            params.push_back(std::move(p));
        }
        if (!acceptOp(",")) break;
    }
    return params;
}

Stmt Parser::forStatement(Pos pos)
{
    Stmt s;
    s.kind = StmtKind::For;
    s.pos = pos;
    s.targets.push_back(targetList());
    if (!acceptName("in"))
        throw SyntaxError(peek().pos, "expected 'in', found " + describe(peek()));
    s.value = starExpressions();
    expectOp(":");
    s.body = suite();
    if (acceptName("else")) {
        expectOp(":");
        s.orelse = suite();
    }
    return s;
}

Stmt Parser::tryStatement(Pos pos)
{
    Stmt s;
    s.kind = StmtKind::Try;
    s.pos = pos;
    expectOp(":");
    s.body = suite();
    while (atName("except")) {
        Stmt handler;
        handler.kind = StmtKind::Other;
        handler.pos = next().pos;
        acceptOp("*"); // except* groups
        if (!atOp(":")) {
            handler.exprs.push_back(starExpressions());
            if (acceptName("as")) handler.targets.push_back(atom());
        }
        expectOp(":");
        handler.body = suite();
        s.handlers.push_back(std::move(handler));
    }
    const bool handled = !s.handlers.empty();
    if (handled && acceptName("else")) {
        expectOp(":");
        s.orelse = suite();
    }
    if (atName("finally")) {
        Stmt last;
        last.kind = StmtKind::Other;
        last.pos = next().pos;
        expectOp(":");
        last.body = suite();
        s.handlers.push_back(std::move(last));
    } else if (!handled) {
        throw SyntaxError(peek().pos, "expected 'except' or 'finally' block");
    }
    return s;
}

Stmt Parser::withStatement(Pos pos)
{
    Stmt s;
    s.kind = StmtKind::With;
    s.pos = pos;
    auto item = [&] {
        s.exprs.push_back(expression());
        if (acceptName("as")) s.targets.push_back(atOp("*") ? starExpression() : orExpr());
    };
    // `with (a as b, c):` groups items in brackets; `with (a, b) as c:` is one expression.
    bool grouped = false;
    if (atOp("(")) {
        const std::size_t start = m_at;
        try {
            next();
            while (!atOp(")")) {
                item();
                if (!acceptOp(",")) break;
            }
            expectOp(")");
            grouped = atOp(":");
        } catch (const SyntaxError&) {
        }
        if (!grouped) {
            m_at = start;
            s.exprs.clear();
            s.targets.clear();
        }
    }
    if (!grouped) do
            item();
        while (acceptOp(","));
    expectOp(":");
    s.body = suite();
    return s;
}

Stmt Parser::matchStatement(Pos pos)
{
    Stmt s;
    s.kind = StmtKind::Match;
    s.pos = pos;
    s.value = starExpressions();
    expectOp(":");
    expectNewline();
    while (accept(TokenKind::Newline)) {
    }
    if (!at(TokenKind::Indent)) throw SyntaxError(peek().pos, "expected an indented block");
    const Level level(m_blocks, kMaxBlocks, peek().pos);
    next();
    while (!at(TokenKind::Dedent) && !at(TokenKind::End)) {
        if (accept(TokenKind::Newline)) continue;
        try {
            if (!atName("case"))
                throw SyntaxError(peek().pos, "expected 'case', found " + describe(peek()));
            Stmt c;
            c.kind = StmtKind::Other;
            c.pos = next().pos;
            pattern();
            if (acceptName("if")) c.value = namedExpression();
            expectOp(":");
            c.body = suite();
            s.handlers.push_back(std::move(c));
        } catch (const SyntaxError& e) {
            report(e.pos, e.what(), "kernel.syntax");
            recover();
        }
    }
    accept(TokenKind::Dedent);
    return s;
}

// A case pattern, read as the expression it looks like (`Point(x=0) | [a, *rest] as p`): the
// checker evaluates none of it, so the tree is not kept.
ExprPtr Parser::pattern()
{
    const Flag inPattern(m_inPattern, true);
    return starExpressions();
}

} // namespace ptowb::kernel
