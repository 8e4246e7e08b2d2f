#include "kernel/kernel_parser_impl.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace ptowb::kernel {

std::shared_ptr<Expr> Parser::make(ExprKind kind, Pos pos)
{
    auto e = std::make_shared<Expr>();
    e->kind = kind;
    e->pos = pos;
    e->end = pos;
    return e;
}

ExprPtr Parser::targetList()
{
    const Pos pos = peek().pos;
    std::vector<ExprPtr> items{orExpr()};
    while (acceptOp(",")) {
        if (atName("in") || atOp("=")) break;
        items.push_back(orExpr());
    }
    if (items.size() == 1) return items[0];
    auto t = make(ExprKind::Tuple, pos);
    t->kids = std::move(items);
    return t;
}

ExprPtr Parser::testList()
{
    const Pos pos = peek().pos;
    ExprPtr first = expression();
    if (!atOp(",")) return first;
    auto t = make(ExprKind::Tuple, pos);
    t->kids.push_back(first);
    while (acceptOp(",")) {
        if (at(TokenKind::Newline) || atOp("=") || atOp(")") || at(TokenKind::End)) break;
        t->kids.push_back(expression());
    }
    return t;
}

Parser::Nested::Nested(Parser& p) : parser(p)
{
    if (++parser.m_nesting > kMaxNesting)
        throw SyntaxError(parser.peek().pos, "expression nested more than " +
                                                 std::to_string(kMaxNesting) + " levels deep");
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
    if (atName("lambda")) throw SyntaxError(peek().pos, "not supported by the simulator: lambda");
    ExprPtr body = orTest();
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
            op = atName("not") ? (next(), "is not") : "is";
        } else if (atName("not") && peek(1).kind == TokenKind::Name && peek(1).text == "in") {
            next();
            next();
            op = "not in";
        } else
            break;
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
    ExprPtr base = atomExpr();
    if (!atOp("**")) return base;
    const Nested nested(*this);
    auto e = make(ExprKind::BinOp, next().pos);
    e->text = "**";
    e->kids = {base, factor()};
    return e;
}

ExprPtr Parser::atomExpr()
{
    ExprPtr e = atom();
    while (true) {
        if (atOp("(") || atOp("[") || atOp(".")) link();
        if (atOp("(")) {
            auto call = make(ExprKind::Call, e->pos);
            next();
            call->kids.push_back(e);
            while (!atOp(")")) {
                if (atOp("*") || atOp("**"))
                    throw SyntaxError(peek().pos,
                                      "not supported by the simulator: argument unpacking");
                if (at(TokenKind::Name) && peek(1).kind == TokenKind::Op && peek(1).text == "=") {
                    const Token& name = next();
                    next();
                    call->keywords.push_back({name.text, expression(), name.pos});
                } else {
                    if (!call->keywords.empty())
                        throw SyntaxError(peek().pos,
                                          "a positional argument cannot follow a keyword argument");
                    call->kids.push_back(expression());
                }
                if (!acceptOp(",")) break;
            }
            call->end = expectOp(")").end;
            e = call;
        } else if (atOp("[")) {
            auto sub = make(ExprKind::Subscript, e->pos);
            next();
            sub->kids.push_back(e);
            do {
                if (atOp("]")) break;
                sub->kids.push_back(subscript());
            } while (acceptOp(","));
            sub->end = expectOp("]").end;
            e = sub;
        } else if (atOp(".")) {
            next();
            auto attr = make(ExprKind::Attribute, e->pos);
            const Token& name = expectName("an attribute name");
            attr->text = name.text;
            attr->kids.push_back(e);
            attr->end = name.end;
            e = attr;
        } else {
            return e;
        }
    }
}

ExprPtr Parser::subscript()
{
    const Pos pos = peek().pos;
    ExprPtr lower;
    if (!atOp(":")) {
        lower = expression();
        if (!atOp(":")) return lower;
    }
    auto slice = make(ExprKind::Slice, pos);
    next(); // ':'
    ExprPtr upper, step;
    if (!atOp(":") && !atOp(",") && !atOp("]")) upper = expression();
    if (acceptOp(":") && !atOp(",") && !atOp("]")) step = expression();
    slice->kids = {lower, upper, step};
    return slice;
}

ExprPtr Parser::atom()
{
    const Token& t = next();
    switch (t.kind) {
    case TokenKind::Name: {
        if (t.text == "True" || t.text == "False" || t.text == "None")
            return make(t.text == "True"    ? ExprKind::True
                        : t.text == "False" ? ExprKind::False
                                            : ExprKind::None,
                        t.pos);
        static const char* const kKeywords[] = {
            "def", "for", "if",     "else", "while", "return", "in",     "and",
            "or",  "not", "import", "from", "class", "pass",   "lambda", "is"};
        for (const char* k : kKeywords)
            if (t.text == k) throw SyntaxError(t.pos, "unexpected '" + t.text + "'");
        auto e = make(ExprKind::Name, t.pos);
        e->text = t.text;
        e->end = t.end;
        return e;
    }
    case TokenKind::Int: {
        auto e = make(ExprKind::Int, t.pos);
        errno = 0;
        const bool prefixed = t.text.size() > 2 && t.text[0] == '0' &&
                              std::isalpha(static_cast<unsigned char>(t.text[1]));
        const int base = !prefixed                                ? 10
                         : (t.text[1] == 'x' || t.text[1] == 'X') ? 16
                         : (t.text[1] == 'o' || t.text[1] == 'O') ? 8
                                                                  : 2;
        e->intValue = std::strtoll(t.text.c_str() + (prefixed ? 2 : 0), nullptr, base);
        if (errno == ERANGE)
            throw SyntaxError(t.pos, "integer " + t.text + " does not fit in 64 bits");
        e->text = t.text;
        e->end = t.end;
        return e;
    }
    case TokenKind::Float: {
        auto e = make(ExprKind::Float, t.pos);
        e->floatValue = std::strtod(t.text.c_str(), nullptr);
        e->text = t.text;
        e->end = t.end;
        return e;
    }
    case TokenKind::String: {
        auto e = make(ExprKind::Str, t.pos);
        e->text = t.text;
        while (at(TokenKind::String))
            e->text += next().text; // implicit concatenation
        return e;
    }
    case TokenKind::Op: {
        if (t.text == "...") return make(ExprKind::Ellipsis, t.pos);
        if (t.text == "(") {
            if (acceptOp(")")) return make(ExprKind::Tuple, t.pos);
            ExprPtr inner = expression();
            if (atOp(",")) {
                auto tuple = make(ExprKind::Tuple, t.pos);
                tuple->kids.push_back(inner);
                while (acceptOp(",") && !atOp(")"))
                    tuple->kids.push_back(expression());
                expectOp(")");
                return tuple;
            }
            expectOp(")");
            return inner;
        }
        if (t.text == "[" || t.text == "{") {
            const bool dict = t.text == "{";
            auto list = make(dict ? ExprKind::Dict : ExprKind::List, t.pos);
            const char* close = dict ? "}" : "]";
            while (!atOp(close)) {
                list->kids.push_back(expression());
                if (dict) {
                    expectOp(":");
                    list->kids.push_back(expression());
                }
                if (atName("for"))
                    throw SyntaxError(peek().pos, "not supported by the simulator: comprehensions");
                if (!acceptOp(",")) break;
            }
            list->end = expectOp(close).end;
            return list;
        }
        break;
    }
    default:
        break;
    }
    throw SyntaxError(t.pos, "unexpected " + describe(t));
}

} // namespace ptowb::kernel
