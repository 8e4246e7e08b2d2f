#include "rules/rule_parser.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <stdexcept>
#include <unordered_map>

namespace ptowb::rules {
namespace {

enum class Tok : std::uint8_t
{
    Int,
    Float,
    Str,
    Name,
    Punct,
    End
};

struct Token
{
    Tok kind = Tok::End;
    Span span;
    std::string text; // punctuation, name, or decoded string
    std::int64_t intValue = 0;
    double floatValue = 0;
};

// Thrown inside the parser only and turned into a RuleError value at its boundary.
struct ParseFailure
{
    RuleError error;
};

[[noreturn]] void fail(Span span, std::string code, std::string message)
{
    throw ParseFailure{{span, std::move(code), std::move(message)}};
}

class Lexer
{
public:
    explicit Lexer(std::string_view text) : m_text(text) {}

    Token next()
    {
        while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])))
            ++m_pos;
        Token t;
        t.span.begin = std::uint32_t(m_pos);
        if (m_pos >= m_text.size()) {
            t.span.end = t.span.begin;
            return t;
        }
        const char c = m_text[m_pos];
        if (std::isdigit(static_cast<unsigned char>(c)) ||
            (c == '.' && m_pos + 1 < m_text.size() &&
             std::isdigit(static_cast<unsigned char>(m_text[m_pos + 1]))))
            return number(t);
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            while (
                m_pos < m_text.size() &&
                (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '_'))
                ++m_pos;
            t.kind = Tok::Name;
            t.text = std::string(m_text.substr(t.span.begin, m_pos - t.span.begin));
            t.span.end = std::uint32_t(m_pos);
            return t;
        }
        if (c == '"' || c == '\'') return string(t, c);
        static const char* const kTwoChar[] = {"//", "<=", ">=", "==", "!=", "**"};
        for (const char* op : kTwoChar) {
            if (m_text.substr(m_pos, 2) == op) {
                m_pos += 2;
                t.kind = Tok::Punct;
                t.text = op;
                t.span.end = std::uint32_t(m_pos);
                return t;
            }
        }
        if (std::string_view("+-*/%<>()[],.:").find(c) != std::string_view::npos) {
            ++m_pos;
            t.kind = Tok::Punct;
            t.text = std::string(1, c);
            t.span.end = std::uint32_t(m_pos);
            return t;
        }
        const bool printable =
            static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f;
        fail({t.span.begin, t.span.begin + 1}, "rule.syntax",
             printable ? std::string("unexpected character '") + c + "'"
                       : "unexpected character (byte " +
                             std::to_string(static_cast<unsigned char>(c)) + ")");
    }

private:
    Token number(Token& t)
    {
        std::size_t end = m_pos;
        bool isFloat = false;
        while (end < m_text.size() &&
               (std::isdigit(static_cast<unsigned char>(m_text[end])) || m_text[end] == '_'))
            ++end;
        if (end < m_text.size() && m_text[end] == '.') {
            isFloat = true;
            ++end;
            while (end < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[end])))
                ++end;
        }
        if (end < m_text.size() && (m_text[end] == 'e' || m_text[end] == 'E')) {
            std::size_t exp = end + 1;
            if (exp < m_text.size() && (m_text[exp] == '+' || m_text[exp] == '-')) ++exp;
            if (exp < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[exp]))) {
                isFloat = true;
                end = exp;
                while (end < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[end])))
                    ++end;
            }
        }
        std::string digits;
        for (std::size_t i = m_pos; i < end; ++i)
            if (m_text[i] != '_') digits += m_text[i];
        t.span.end = std::uint32_t(end);
        if (end < m_text.size() &&
            (std::isalpha(static_cast<unsigned char>(m_text[end])) || m_text[end] == '_'))
            fail({t.span.begin, std::uint32_t(end + 1)}, "rule.syntax", "invalid number literal");
        m_pos = end;
        errno = 0;
        if (isFloat) {
            t.kind = Tok::Float;
            t.floatValue = std::strtod(digits.c_str(), nullptr);
            if (errno == ERANGE && std::abs(t.floatValue) > 1.0)
                fail(t.span, "rule.overflow", "float literal " + digits + " is out of range");
        } else {
            t.kind = Tok::Int;
            if (digits.size() > 1 && digits[0] == '0')
                fail(t.span, "rule.syntax", "leading zeros are not allowed in an integer literal");
            t.intValue = std::strtoll(digits.c_str(), nullptr, 10);
            if (errno == ERANGE)
                fail(t.span, "rule.overflow",
                     "integer literal " + digits + " does not fit in 64 bits");
        }
        return t;
    }

    Token string(Token& t, char quote)
    {
        ++m_pos;
        while (m_pos < m_text.size() && m_text[m_pos] != quote) {
            if (m_text[m_pos] == '\\' && m_pos + 1 < m_text.size()) {
                const char e = m_text[m_pos + 1];
                t.text += e == 'n' ? '\n' : e == 't' ? '\t' : e;
                m_pos += 2;
            } else {
                t.text += m_text[m_pos++];
            }
        }
        if (m_pos >= m_text.size())
            fail({t.span.begin, std::uint32_t(m_text.size())}, "rule.syntax",
                 "unterminated string literal");
        ++m_pos;
        t.kind = Tok::Str;
        t.span.end = std::uint32_t(m_pos);
        return t;
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
};

NodePtr makeNode(NodeKind kind, Span span)
{
    auto n = std::make_unique<Node>();
    n->kind = kind;
    n->span = span;
    return n;
}

Span join(Span a, Span b)
{
    return {std::min(a.begin, b.begin), std::max(a.end, b.end)};
}

// Recursive descent following Python's expression grammar, restricted to the rule subset.
class Parser
{
public:
    explicit Parser(std::string_view text) : m_lexer(text), m_text(text) { advance(); }

    NodePtr parseAll()
    {
        if (m_tok.kind == Tok::End)
            fail({0, std::uint32_t(m_text.size())}, "rule.empty", "empty rule");
        NodePtr e = ternary();
        if (m_tok.kind != Tok::End)
            fail(m_tok.span, "rule.syntax",
                 "unexpected '" + spelling(m_tok) + "' after the end of the expression");
        return e;
    }

private:
    struct DepthGuard
    {
        Parser& p;
        explicit DepthGuard(Parser& parser) : p(parser)
        {
            if (++p.m_depth > kMaxRuleDepth)
                fail(p.m_tok.span, "rule.too-deep",
                     "expression is nested more than " + std::to_string(kMaxRuleDepth) +
                         " levels deep");
        }
        ~DepthGuard() { --p.m_depth; }
    };

    int heightOf(const NodePtr& n) const
    {
        if (!n) return 0;
        const auto it = m_heights.find(n.get());
        return it == m_heights.end() ? 1 : it->second;
    }

    // Records the height of a finished node. Operator chains are built by loops, not by
    // recursion, so only this catches a 5,000-term sum before anything recurses over it.
    void seal(const Node& n, Span at)
    {
        int height = 0;
        for (const auto& kid : n.kids)
            height = std::max(height, heightOf(kid));
        if (++height > kMaxRuleHeight)
            fail(at, "rule.too-deep",
                 "expression is nested more than " + std::to_string(kMaxRuleHeight) +
                     " levels deep (each operator of a chain like a + b + c counts as a level)");
        m_heights[&n] = height;
    }

    static std::string spelling(const Token& t)
    {
        switch (t.kind) {
        case Tok::End:
            return "end of rule";
        case Tok::Int:
            return std::to_string(t.intValue);
        case Tok::Str:
            return "\"" + t.text + "\"";
        default:
            return t.text;
        }
    }

    void advance()
    {
        m_prevEnd = m_tok.span.end;
        m_tok = m_lexer.next();
    }
    bool isPunct(const char* p) const { return m_tok.kind == Tok::Punct && m_tok.text == p; }
    bool isKeyword(const char* k) const { return m_tok.kind == Tok::Name && m_tok.text == k; }

    void expectPunct(const char* p, const char* context)
    {
        if (!isPunct(p))
            fail(m_tok.span, "rule.syntax",
                 std::string("expected '") + p + "' " + context + ", found '" + spelling(m_tok) +
                     "'");
        advance();
    }

    NodePtr ternary()
    {
        NodePtr then = disjunction();
        if (!isKeyword("if")) return then;
        advance();
        NodePtr cond = disjunction();
        if (!isKeyword("else"))
            fail(m_tok.span, "rule.syntax",
                 "expected 'else' in a conditional expression, found '" + spelling(m_tok) + "'");
        advance();
        DepthGuard guard(*this);
        NodePtr otherwise = ternary();
        auto n = makeNode(NodeKind::IfElse, join(then->span, otherwise->span));
        n->kids.push_back(std::move(then));
        n->kids.push_back(std::move(cond));
        n->kids.push_back(std::move(otherwise));
        seal(*n, n->span);
        return n;
    }

    NodePtr disjunction() { return boolChain("or", NodeKind::Or, &Parser::conjunction); }
    NodePtr conjunction() { return boolChain("and", NodeKind::And, &Parser::negation); }

    NodePtr boolChain(const char* keyword, NodeKind kind, NodePtr (Parser::*operand)())
    {
        NodePtr left = (this->*operand)();
        while (isKeyword(keyword)) {
            const Span at = m_tok.span;
            advance();
            NodePtr right = (this->*operand)();
            auto n = makeNode(kind, join(left->span, right->span));
            n->kids.push_back(std::move(left));
            n->kids.push_back(std::move(right));
            seal(*n, at);
            left = std::move(n);
        }
        return left;
    }

    NodePtr negation()
    {
        if (!isKeyword("not")) return comparison();
        const Span start = m_tok.span;
        advance();
        DepthGuard guard(*this);
        NodePtr operand = negation();
        auto n = makeNode(NodeKind::Not, join(start, operand->span));
        n->kids.push_back(std::move(operand));
        seal(*n, start);
        return n;
    }

    bool comparisonOp(Op& op)
    {
        static const std::pair<const char*, Op> kOps[] = {{"==", Op::Eq}, {"!=", Op::Ne},
                                                          {"<=", Op::Le}, {">=", Op::Ge},
                                                          {"<", Op::Lt},  {">", Op::Gt}};
        for (const auto& [spell, value] : kOps)
            if (isPunct(spell)) {
                op = value;
                advance();
                return true;
            }
        if (isKeyword("in")) {
            op = Op::In;
            advance();
            return true;
        }
        if (isKeyword("not")) {
            advance();
            if (!isKeyword("in")) fail(m_tok.span, "rule.syntax", "expected 'in' after 'not'");
            advance();
            op = Op::NotIn;
            return true;
        }
        return false;
    }

    NodePtr comparison()
    {
        NodePtr first = arith();
        Op op;
        if (!comparisonOp(op)) return first;
        auto n = makeNode(NodeKind::Compare, first->span);
        n->kids.push_back(std::move(first));
        do {
            n->ops.push_back(op);
            n->kids.push_back(arith());
            n->span = join(n->span, n->kids.back()->span);
        } while (comparisonOp(op));
        seal(*n, n->span);
        return n;
    }

    NodePtr binaryChain(NodePtr (Parser::*operand)(),
                        std::initializer_list<std::pair<const char*, Op>> ops)
    {
        NodePtr left = (this->*operand)();
        while (true) {
            const std::pair<const char*, Op>* match = nullptr;
            for (const auto& entry : ops)
                if (isPunct(entry.first)) match = &entry;
            if (!match) return left;
            const Span at = m_tok.span;
            advance();
            NodePtr right = (this->*operand)();
            auto n = makeNode(NodeKind::Binary, join(left->span, right->span));
            n->op = match->second;
            n->kids.push_back(std::move(left));
            n->kids.push_back(std::move(right));
            seal(*n, at);
            left = std::move(n);
        }
    }

    NodePtr arith() { return binaryChain(&Parser::term, {{"+", Op::Add}, {"-", Op::Sub}}); }
    NodePtr term()
    {
        return binaryChain(&Parser::factor,
                           {{"*", Op::Mul}, {"//", Op::FloorDiv}, {"/", Op::Div}, {"%", Op::Mod}});
    }

    NodePtr factor()
    {
        if (isPunct("-") || isPunct("+")) {
            const Span start = m_tok.span;
            const Op op = isPunct("-") ? Op::Neg : Op::Pos;
            advance();
            DepthGuard guard(*this);
            NodePtr operand = factor();
            auto n = makeNode(NodeKind::Unary, join(start, operand->span));
            n->op = op;
            n->kids.push_back(std::move(operand));
            seal(*n, start);
            return n;
        }
        NodePtr base = primary();
        if (isPunct("**"))
            fail(m_tok.span, "rule.unsupported", "'**' is not supported in rules; use '*'");
        return base;
    }

    NodePtr primary()
    {
        NodePtr n = atom();
        while (true) {
            if (isPunct(".")) {
                advance();
                if (m_tok.kind != Tok::Name)
                    fail(m_tok.span, "rule.syntax", "expected an attribute name after '.'");
                auto attr = makeNode(NodeKind::Attr, join(n->span, m_tok.span));
                attr->text = m_tok.text;
                attr->kids.push_back(std::move(n));
                seal(*attr, attr->span);
                n = std::move(attr);
                advance();
            } else if (isPunct("[")) {
                advance();
                DepthGuard guard(*this);
                NodePtr index = subscript();
                const Span close = m_tok.span;
                expectPunct("]", "to close the index");
                auto idx = makeNode(NodeKind::Index, join(n->span, close));
                idx->kids.push_back(std::move(n));
                idx->kids.push_back(std::move(index));
                seal(*idx, close);
                n = std::move(idx);
            } else if (isPunct("(")) {
                if (n->kind != NodeKind::Name)
                    fail(m_tok.span, "rule.syntax", "only built-in functions can be called");
                advance();
                DepthGuard guard(*this);
                auto call = makeNode(NodeKind::Call, n->span);
                call->text = n->text;
                while (!isPunct(")")) {
                    call->kids.push_back(ternary());
                    if (!isPunct(",")) break;
                    advance();
                }
                call->span = join(call->span, m_tok.span);
                expectPunct(")", "to close the argument list");
                seal(*call, call->span);
                n = std::move(call);
            } else {
                return n;
            }
        }
    }

    NodePtr subscript()
    {
        const Span start = m_tok.span;
        NodePtr lower;
        if (!isPunct(":")) {
            lower = ternary();
            if (!isPunct(":")) return lower;
        }
        auto slice = makeNode(NodeKind::Slice, start);
        advance(); // ':'
        NodePtr upper, step;
        if (!isPunct(":") && !isPunct("]")) upper = ternary();
        if (isPunct(":")) {
            advance();
            if (!isPunct("]")) step = ternary();
        }
        slice->span = {start.begin, m_prevEnd};
        slice->kids.push_back(std::move(lower));
        slice->kids.push_back(std::move(upper));
        slice->kids.push_back(std::move(step));
        seal(*slice, slice->span);
        return slice;
    }

    NodePtr atom()
    {
        const Token t = m_tok;
        switch (t.kind) {
        case Tok::Int: {
            advance();
            auto n = makeNode(NodeKind::IntLit, t.span);
            n->intValue = t.intValue;
            return n;
        }
        case Tok::Float: {
            advance();
            auto n = makeNode(NodeKind::FloatLit, t.span);
            n->floatValue = t.floatValue;
            return n;
        }
        case Tok::Str: {
            advance();
            auto n = makeNode(NodeKind::StrLit, t.span);
            n->text = t.text;
            return n;
        }
        case Tok::Name: {
            if (t.text == "True" || t.text == "False") {
                advance();
                auto n = makeNode(NodeKind::BoolLit, t.span);
                n->intValue = t.text == "True";
                return n;
            }
            static const char* const kReserved[] = {"and", "or",   "not",    "if",  "else",
                                                    "in",  "None", "lambda", "for", "is"};
            for (const char* r : kReserved)
                if (t.text == r)
                    fail(t.span,
                         t.text == "None" || t.text == "lambda" || t.text == "for" || t.text == "is"
                             ? "rule.unsupported"
                             : "rule.syntax",
                         "unexpected keyword '" + t.text + "'");
            advance();
            auto n = makeNode(NodeKind::Name, t.span);
            n->text = t.text;
            return n;
        }
        case Tok::Punct:
            if (t.text == "(") {
                advance();
                DepthGuard guard(*this);
                if (isPunct(")"))
                    fail(m_tok.span, "rule.unsupported",
                         "tuples are not supported; use a list [a, b]");
                NodePtr inner = ternary();
                if (isPunct(","))
                    fail(m_tok.span, "rule.unsupported",
                         "tuples are not supported; use a list [a, b]");
                const Span close = m_tok.span;
                expectPunct(")", "to close the parenthesis");
                inner->span = join(t.span, close);
                return inner;
            }
            if (t.text == "[") {
                advance();
                DepthGuard guard(*this);
                auto list = makeNode(NodeKind::List, t.span);
                while (!isPunct("]")) {
                    list->kids.push_back(ternary());
                    if (!isPunct(",")) break;
                    advance();
                }
                list->span = join(t.span, m_tok.span);
                expectPunct("]", "to close the list");
                seal(*list, list->span);
                return list;
            }
            fail(t.span, "rule.syntax", "unexpected '" + t.text + "'");
        case Tok::End:
            fail(t.span, "rule.syntax", "unexpected end of rule");
        }
        fail(t.span, "rule.syntax", "unexpected token");
    }

    Lexer m_lexer;
    std::string_view m_text;
    Token m_tok;
    std::uint32_t m_prevEnd = 0;
    int m_depth = 0;
    std::unordered_map<const Node*, int> m_heights; // of composite nodes; leaves are 1
};

} // namespace

std::variant<NodePtr, RuleError> parseRule(std::string_view text)
{
    if (text.size() > kMaxRuleLength)
        return RuleError{{0, 0},
                         "rule.too-long",
                         "rule is " + std::to_string(text.size()) + " characters long; at most " +
                             std::to_string(kMaxRuleLength) + " are allowed"};
    try {
        Parser parser(text);
        return parser.parseAll();
    } catch (const ParseFailure& failure) {
        return failure.error;
    }
}

} // namespace ptowb::rules
