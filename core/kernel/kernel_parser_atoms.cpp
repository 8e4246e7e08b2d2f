// Primaries: atoms, displays, comprehensions, calls, subscripts and attributes.
#include "kernel/kernel_parser_impl.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace ptowb::kernel {

ExprPtr Parser::atomExpr()
{
    ExprPtr e = atom();
    while (true) {
        if (atOp("(") || atOp("[") || atOp(".")) link();
        if (atOp("(")) {
            auto call = make(ExprKind::Call, e->pos);
            next();
            call->kids.push_back(e);
            arguments(*call);
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

// Call arguments up to the closing bracket: positional, `*it`, `k=v`, `**m`, and a lone
// generator expression.
void Parser::arguments(Expr& call)
{
    while (!atOp(")")) {
        if (atOp("*")) { // unlike a display's, a call's `*` takes a whole conditional
            auto star = make(ExprKind::Starred, next().pos);
            star->text = "*";
            star->kids = {expression()};
            call.kids.push_back(star);
        } else if (atOp("**")) {
            const Pos pos = next().pos;
            call.keywords.push_back({"", expression(), pos});
        } else if (at(TokenKind::Name) && atOp("=", 1)) {
            const Token& name = next();
            next();
            call.keywords.push_back({name.text, expression(), name.pos});
        } else {
            if (!call.keywords.empty())
                throw SyntaxError(peek().pos,
                                  "a positional argument cannot follow a keyword argument");
            ExprPtr value = namedExpression();
            if (atName("for") || atName("async")) {
                auto generator = make(ExprKind::Comprehension, value->pos);
                generator->text = "(";
                generator->kids.push_back(value);
                comprehensionClauses(*generator);
                value = generator;
            }
            call.kids.push_back(value);
        }
        if (!acceptOp(",")) break;
    }
}

ExprPtr Parser::subscript()
{
    const Pos pos = peek().pos;
    ExprPtr lower;
    if (!atOp(":")) {
        lower = starExpression();
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

void Parser::comprehensionClauses(Expr& into)
{
    while (atName("for") || (atName("async") && atName("for", 1))) {
        acceptName("async");
        next(); // for
        into.kids.push_back(targetList());
        if (!acceptName("in"))
            throw SyntaxError(peek().pos, "expected 'in', found " + describe(peek()));
        into.kids.push_back(orTest());
        while (acceptName("if"))
            into.kids.push_back(orTest());
    }
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
        if (isHardKeyword(t.text)) throw SyntaxError(t.pos, "unexpected '" + t.text + "'");
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
        // Python's integers have no bound: a huge literal is a valid, unknown number.
        if (errno == ERANGE) e->kind = ExprKind::Float;
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
    case TokenKind::Op:
        if (t.text == "...") return make(ExprKind::Ellipsis, t.pos);
        if (t.text == "(" || t.text == "[" || t.text == "{") return bracketed(t);
        break;
    default:
        break;
    }
    throw SyntaxError(t.pos, "unexpected " + describe(t));
}

// What follows an opening bracket: a tuple, list, set or dict display, a comprehension, a
// parenthesized expression or yield.
ExprPtr Parser::bracketed(const Token& open)
{
    const Nested nested(*this);
    const std::string o = open.text;
    const char* close = o == "(" ? ")" : o == "[" ? "]" : "}";
    const ExprKind display = o == "(" ? ExprKind::Tuple : o == "[" ? ExprKind::List : ExprKind::Set;
    if (atOp(close)) {
        auto empty = make(o == "{" ? ExprKind::Dict : display, open.pos);
        empty->end = next().end;
        return empty;
    }
    if (o == "(" && atName("yield")) {
        ExprPtr y = yieldExpression();
        expectOp(")");
        return y;
    }
    // A dict starts with `key:` or `**mapping`.
    bool dict = false;
    ExprPtr first;
    if (o == "{" && atOp("**")) {
        dict = true;
    } else {
        first = starExpression();
        dict = o == "{" && atOp(":");
    }
    auto e = make(dict ? ExprKind::Dict : display, open.pos);
    if (first && (atName("for") || atName("async"))) {
        e->kind = ExprKind::Comprehension;
        e->text = o;
        e->kids.push_back(first);
        comprehensionClauses(*e);
        e->end = expectOp(close).end;
        return e;
    }
    if (dict) {
        auto item = [&](ExprPtr key) {
            if (!key && atOp("**")) {
                auto spread = make(ExprKind::Starred, next().pos);
                spread->text = "**";
                spread->kids = {orExpr()};
                e->kids.push_back(spread);
                e->kids.push_back(nullptr);
                return;
            }
            e->kids.push_back(key ? key : expression());
            expectOp(":");
            e->kids.push_back(expression());
        };
        item(first);
        if (first && (atName("for") || atName("async"))) {
            e->kind = ExprKind::Comprehension;
            e->text = "{:";
            comprehensionClauses(*e);
        }
        while (e->kind == ExprKind::Dict && acceptOp(",") && !atOp("}"))
            item(nullptr);
        e->end = expectOp("}").end;
        return e;
    }
    if (o == "(" && !atOp(",")) { // parenthesized
        expectOp(")");
        return first;
    }
    e->kids.push_back(first);
    while (acceptOp(",") && !atOp(close))
        e->kids.push_back(starExpression());
    e->end = expectOp(close).end;
    return e;
}

} // namespace ptowb::kernel
