// Expressions down to the primaries: targets, tuples, `:=`, lambda, yield, conditional,
// boolean, comparison, arithmetic and unary operators, `await` and `**`.
#include "kernel/kernel_parser_impl.h"

namespace ptowb::kernel {

namespace {

// Whether a token can begin an expression: what decides if a trailing comma ends a tuple.
bool startsExpression(const Token& t)
{
    switch (t.kind) {
    case TokenKind::Name:
        return !isHardKeyword(t.text) || t.text == "lambda" || t.text == "not" || t.text == "await";
    case TokenKind::Int:
    case TokenKind::Float:
    case TokenKind::String:
        return true;
    case TokenKind::Op:
        for (const char* op : {"(", "[", "{", "-", "+", "~", "*", "..."})
            if (t.text == op) return true;
        return false;
    default:
        return false;
    }
}

} // namespace

bool isHardKeyword(const std::string& word)
{
    static const char* const kKeywords[] = {
        "and",    "as",   "assert", "async",  "await",  "break",   "class",    "continue",
        "def",    "del",  "elif",   "else",   "except", "finally", "for",      "from",
        "global", "if",   "import", "in",     "is",     "lambda",  "nonlocal", "not",
        "or",     "pass", "raise",  "return", "try",    "while",   "with",     "yield"};
    for (const char* k : kKeywords)
        if (word == k) return true;
    return false;
}

std::shared_ptr<Expr> Parser::make(ExprKind kind, Pos pos)
{
    auto e = std::make_shared<Expr>();
    e->kind = kind;
    e->pos = pos;
    e->end = pos;
    return e;
}

// Assignment, loop and `del` targets: `a`, `a, *b`, `x[i].y`.
ExprPtr Parser::targetList()
{
    const Pos pos = peek().pos;
    auto item = [&] { return atOp("*") ? starExpression() : orExpr(); };
    std::vector<ExprPtr> items{item()};
    bool comma = false;
    while (acceptOp(",")) {
        comma = true;
        if (!startsExpression(peek())) break;
        items.push_back(item());
    }
    if (!comma) return items[0];
    auto t = make(ExprKind::Tuple, pos);
    t->kids = std::move(items);
    return t;
}

ExprPtr Parser::starExpressions()
{
    const Pos pos = peek().pos;
    ExprPtr first = starExpression();
    if (!atOp(",")) return first;
    auto t = make(ExprKind::Tuple, pos);
    t->kids.push_back(first);
    while (acceptOp(",")) {
        if (!startsExpression(peek())) break;
        t->kids.push_back(starExpression());
    }
    return t;
}

ExprPtr Parser::starExpression()
{
    if (!atOp("*")) return namedExpression();
    auto e = make(ExprKind::Starred, next().pos);
    e->text = "*";
    e->kids = {orExpr()};
    return e;
}

ExprPtr Parser::namedExpression()
{
    if (!(at(TokenKind::Name) && atOp(":=", 1))) return expression();
    const Nested nested(*this);
    auto target = make(ExprKind::Name, peek().pos);
    target->text = next().text;
    target->end = peek().pos;
    auto e = make(ExprKind::NamedExpr, next().pos);
    e->kids = {target, expression()};
    return e;
}

Parser::Nested::Nested(Parser& p) : parser(p)
{
    if (++parser.m_nesting > kMaxNesting) {
        --parser.m_nesting; // the destructor does not run for a constructor that throws
        throw SyntaxError(parser.peek().pos, "expression nested more than " +
                                                 std::to_string(kMaxNesting) + " levels deep");
    }
}

void Parser::link()
{
    if (++m_chain > kMaxChain)
        throw SyntaxError(peek().pos, "expression has more than " + std::to_string(kMaxChain) +
                                          " operators in one statement");
}

ExprPtr Parser::expression()
{
    const Nested nested(*this);
    if (m_nesting == 1) m_chain = 0; // a statement's top-level expression starts a new count
    if (atName("lambda")) return lambda();
    ExprPtr body = orTest();
    if (m_inPattern) { // a capture: `case [x, y] as point`
        if (acceptName("as")) expectName("a name");
        return body;
    }
    if (!atName("if")) return body;
    const Pos pos = next().pos;
    ExprPtr test = orTest();
    if (!atName("else"))
        throw SyntaxError(peek().pos,
                          "expected 'else' in a conditional expression, found " + describe(peek()));
    next();
    auto e = make(ExprKind::IfExp, pos);
    e->kids = {body, test, expression()};
    return e;
}

ExprPtr Parser::lambda()
{
    auto e = make(ExprKind::Lambda, next().pos);
    const std::vector<Param> params = parameters(":", false);
    expectOp(":");
    e->kids.push_back(expression());
    for (const Param& p : params)
        if (p.defaultValue) e->kids.push_back(p.defaultValue);
    return e;
}

ExprPtr Parser::yieldExpression()
{
    auto e = make(ExprKind::Yield, next().pos);
    e->text = "yield";
    if (acceptName("from")) {
        e->text = "yield from";
        e->kids.push_back(expression());
    } else if (startsExpression(peek())) {
        e->kids.push_back(starExpressions());
    }
    return e;
}

ExprPtr Parser::orTest()
{
    ExprPtr left = andTest();
    while (atName("or")) {
        link();
        auto e = make(ExprKind::BoolOp, next().pos);
        e->text = "or";
        e->kids = {left, andTest()};
        left = e;
    }
    return left;
}

ExprPtr Parser::andTest()
{
    ExprPtr left = notTest();
    while (atName("and")) {
        link();
        auto e = make(ExprKind::BoolOp, next().pos);
        e->text = "and";
        e->kids = {left, notTest()};
        left = e;
    }
    return left;
}

ExprPtr Parser::notTest()
{
    if (!atName("not")) return comparison();
    const Nested nested(*this);
    auto e = make(ExprKind::UnaryOp, next().pos);
    e->text = "not";
    e->kids = {notTest()};
    return e;
}

ExprPtr Parser::comparison()
{
    ExprPtr left = orExpr();
    std::shared_ptr<Expr> cmp;
    while (true) {
        std::string op;
        if (atOp("<") || atOp(">") || atOp("==") || atOp("!=") || atOp("<=") || atOp(">="))
            op = next().text;
        else if (atName("in"))
            op = next().text;
        else if (atName("is")) {
            next();
            op = acceptName("not") ? "is not" : "is";
        } else if (atName("not") && atName("in", 1)) {
            next();
            next();
            op = "not in";
        } else
            break;
        link();
        if (!cmp) {
            cmp = make(ExprKind::Compare, left->pos);
            cmp->kids.push_back(left);
        }
        cmp->ops.push_back(op);
        cmp->kids.push_back(orExpr());
    }
    return cmp ? ExprPtr(cmp) : left;
}

ExprPtr Parser::binary(ExprPtr (Parser::*operand)(), std::initializer_list<const char*> ops)
{
    ExprPtr left = (this->*operand)();
    while (true) {
        const char* found = nullptr;
        for (const char* op : ops)
            if (atOp(op)) found = op;
        if (!found) return left;
        link();
        auto e = make(ExprKind::BinOp, next().pos);
        e->text = found;
        e->kids = {left, (this->*operand)()};
        left = e;
    }
}

ExprPtr Parser::factor()
{
    if (atOp("-") || atOp("+") || atOp("~")) {
        const Nested nested(*this);
        auto e = make(ExprKind::UnaryOp, peek().pos);
        e->text = next().text;
        e->kids = {factor()};
        return e;
    }
    return power();
}

ExprPtr Parser::power()
{
    ExprPtr base;
    if (atName("await")) {
        const Nested nested(*this);
        auto e = make(ExprKind::Await, next().pos);
        e->kids = {atomExpr()};
        base = e;
    } else {
        base = atomExpr();
    }
    if (!atOp("**")) return base;
    const Nested nested(*this);
    auto e = make(ExprKind::BinOp, next().pos);
    e->text = "**";
    e->kids = {base, factor()};
    return e;
}

} // namespace ptowb::kernel
