#include "kernel/kernel_parser.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <stdexcept>

namespace ptowb::kernel {

namespace {

struct SyntaxError : std::runtime_error
{
    SyntaxError(Pos p, const std::string& message) : std::runtime_error(message), pos(p) {}
    Pos pos;
};

class Parser
{
public:
    Parser(std::vector<Token> tokens, const std::string& file, Diagnostics& diagnostics)
        : m_tokens(std::move(tokens)), m_file(file), m_diagnostics(diagnostics)
    {
    }

    Module module()
    {
        Module m;
        while (!at(TokenKind::End)) {
            if (accept(TokenKind::Newline) || accept(TokenKind::Indent) || accept(TokenKind::Dedent)) continue;
            try {
                topLevel(m);
            } catch (const SyntaxError& e) {
                report(e.pos, e.what(), "kernel.syntax");
                recover();
            }
        }
        return m;
    }

private:
    // --- tokens ---
    const Token& peek(int ahead = 0) const { return m_tokens[std::min(m_at + std::size_t(ahead), m_tokens.size() - 1)]; }
    bool at(TokenKind kind) const { return peek().kind == kind; }
    bool atOp(const char* op) const { return peek().kind == TokenKind::Op && peek().text == op; }
    bool atName(const char* name) const { return peek().kind == TokenKind::Name && peek().text == name; }
    const Token& next() { return m_tokens[std::min(m_at++, m_tokens.size() - 1)]; }
    bool accept(TokenKind kind)
    {
        if (!at(kind)) return false;
        next();
        return true;
    }
    bool acceptOp(const char* op)
    {
        if (!atOp(op)) return false;
        next();
        return true;
    }
    std::string describe(const Token& t) const
    {
        switch (t.kind) {
        case TokenKind::Newline: return "end of line";
        case TokenKind::Indent: return "an indented block";
        case TokenKind::Dedent: return "the end of the block";
        case TokenKind::End: return "the end of the file";
        case TokenKind::String: return "a string";
        default: return "'" + t.text + "'";
        }
    }
    const Token& expectOp(const char* op)
    {
        if (!atOp(op)) throw SyntaxError(peek().pos, std::string("expected '") + op + "', found " + describe(peek()));
        return next();
    }
    const Token& expectName(const char* what)
    {
        if (!at(TokenKind::Name)) throw SyntaxError(peek().pos, std::string("expected ") + what + ", found " + describe(peek()));
        return next();
    }
    void expectNewline()
    {
        if (accept(TokenKind::Newline) || at(TokenKind::End) || at(TokenKind::Dedent)) return;
        throw SyntaxError(peek().pos, "expected the end of the statement, found " + describe(peek()));
    }
    // Skips the rest of a broken statement, and the block it would have opened.
    void recover()
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
    void report(Pos pos, const std::string& message, const std::string& code)
    {
        m_diagnostics.push_back(diagnosticAt(m_file, pos, code, message));
    }

    // --- module level ---
    void topLevel(Module& m)
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
            if (!atName("import")) throw SyntaxError(peek().pos, "expected 'import', found " + describe(peek()));
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
        if (!decorators.empty()) throw SyntaxError(peek().pos, "a decorator must be followed by a function definition");
        // A docstring or constant is harmless; other top-level code is outside the subset.
        const Stmt s = statement();
        if (s.kind != StmtKind::ExprStmt || !s.value || s.value->kind != ExprKind::Str)
            if (s.kind != StmtKind::Pass) report(s.pos, "not supported by the simulator: top-level statements other than imports and functions", "kernel.unsupported");
    }

    std::string dotted()
    {
        std::string path = expectName("a module name").text;
        while (acceptOp(".")) path += "." + expectName("a name").text;
        return path;
    }

    FunctionDef functionDef(std::vector<ExprPtr> decorators)
    {
        FunctionDef f;
        f.pos = next().pos; // def
        f.decorators = std::move(decorators);
        f.name = expectName("a function name").text;
        expectOp("(");
        while (!atOp(")")) {
            if (atOp("*") || atOp("**") || atOp("/")) {
                report(peek().pos, "not supported by the simulator: '" + peek().text + "' in a kernel's parameters", "kernel.unsupported");
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

    std::vector<Stmt> suite()
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

    void compoundOrSimple(std::vector<Stmt>& body)
    {
        const Token& t = peek();
        if (t.kind == TokenKind::Name && (t.text == "for" || t.text == "if" || t.text == "while" || t.text == "with" || t.text == "def" || t.text == "try" ||
                                          t.text == "class")) {
            body.push_back(compound());
            return;
        }
        if (atOp("@")) {
            report(t.pos, "not supported by the simulator: nested decorated functions", "kernel.unsupported");
            recover();
            return;
        }
        simpleStatements(body);
    }

    Stmt compound()
    {
        const Token keyword = next();
        Stmt s;
        s.pos = keyword.pos;
        if (keyword.text == "for") {
            s.kind = StmtKind::For;
            s.targets.push_back(targetList());
            if (!atName("in")) throw SyntaxError(peek().pos, "expected 'in', found " + describe(peek()));
            next();
            s.value = expression();
            expectOp(":");
            s.body = suite();
            if (atName("else")) {
                report(peek().pos, "not supported by the simulator: 'else' after a loop", "kernel.unsupported");
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
            while (!at(TokenKind::End) && !atOp(":")) next();
            expectOp(":");
            const std::size_t before = m_diagnostics.size();
            suite();
            m_diagnostics.resize(before);
        }
        return s;
    }

    void simpleStatements(std::vector<Stmt>& body)
    {
        body.push_back(simple());
        while (acceptOp(";"))
            if (!at(TokenKind::Newline) && !at(TokenKind::End)) body.push_back(simple());
        expectNewline();
    }

    Stmt statement()
    {
        std::vector<Stmt> body;
        compoundOrSimple(body);
        return body.empty() ? Stmt{} : body.front();
    }

    Stmt simple()
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
            static const char* const kUnsupported[] = {"break", "continue", "while", "assert", "del", "global", "nonlocal", "raise", "import", "from", "yield", "lambda"};
            for (const char* word : kUnsupported)
                if (t.text == word) {
                    s.kind = StmtKind::Unsupported;
                    s.op = "'" + t.text + "' statements";
                    report(t.pos, "not supported by the simulator: " + s.op + (t.text == "import" || t.text == "from" ? " inside a function" : ""),
                           "kernel.unsupported");
                    while (!at(TokenKind::Newline) && !at(TokenKind::End) && !atOp(";")) next();
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
        while (acceptOp("=")) s.targets.push_back(testList());
        s.value = s.targets.back();
        s.targets.pop_back();
        return s;
    }

    // --- expressions ---
    std::shared_ptr<Expr> make(ExprKind kind, Pos pos)
    {
        auto e = std::make_shared<Expr>();
        e->kind = kind;
        e->pos = pos;
        e->end = pos;
        return e;
    }

    ExprPtr targetList()
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

    ExprPtr testList()
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

    ExprPtr expression()
    {
        // Bounded recursion: a hostile file cannot overflow the stack.
        struct Depth
        {
            int& depth;
            explicit Depth(int& d) : depth(++d) {}
            ~Depth() { --depth; }
        } depth(m_nesting);
        if (m_nesting > kMaxNesting) throw SyntaxError(peek().pos, "expression nested more than " + std::to_string(kMaxNesting) + " levels deep");
        if (atName("lambda")) throw SyntaxError(peek().pos, "not supported by the simulator: lambda");
        ExprPtr body = orTest();
        if (!atName("if")) return body;
        const Pos pos = next().pos;
        ExprPtr test = orTest();
        if (!atName("else")) throw SyntaxError(peek().pos, "expected 'else' in a conditional expression, found " + describe(peek()));
        next();
        auto e = make(ExprKind::IfExp, pos);
        e->kids = {body, test, expression()};
        return e;
    }

    ExprPtr orTest()
    {
        ExprPtr left = andTest();
        while (atName("or")) {
            auto e = make(ExprKind::BoolOp, next().pos);
            e->text = "or";
            e->kids = {left, andTest()};
            left = e;
        }
        return left;
    }

    ExprPtr andTest()
    {
        ExprPtr left = notTest();
        while (atName("and")) {
            auto e = make(ExprKind::BoolOp, next().pos);
            e->text = "and";
            e->kids = {left, notTest()};
            left = e;
        }
        return left;
    }

    ExprPtr notTest()
    {
        if (!atName("not")) return comparison();
        auto e = make(ExprKind::UnaryOp, next().pos);
        e->text = "not";
        e->kids = {notTest()};
        return e;
    }

    ExprPtr comparison()
    {
        ExprPtr left = orExpr();
        std::shared_ptr<Expr> cmp;
        while (true) {
            std::string op;
            if (atOp("<") || atOp(">") || atOp("==") || atOp("!=") || atOp("<=") || atOp(">=")) op = next().text;
            else if (atName("in")) op = next().text;
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

    ExprPtr binary(ExprPtr (Parser::*operand)(), std::initializer_list<const char*> ops)
    {
        ExprPtr left = (this->*operand)();
        while (true) {
            const char* found = nullptr;
            for (const char* op : ops)
                if (atOp(op)) found = op;
            if (!found) return left;
            auto e = make(ExprKind::BinOp, next().pos);
            e->text = found;
            e->kids = {left, (this->*operand)()};
            left = e;
        }
    }

    ExprPtr orExpr() { return binary(&Parser::xorExpr, {"|"}); }
    ExprPtr xorExpr() { return binary(&Parser::andExpr, {"^"}); }
    ExprPtr andExpr() { return binary(&Parser::arith, {"&"}); }
    ExprPtr arith() { return binary(&Parser::term, {"+", "-"}); }
    ExprPtr term() { return binary(&Parser::factor, {"*", "/", "//", "%", "@"}); }

    ExprPtr factor()
    {
        if (atOp("-") || atOp("+") || atOp("~")) {
            auto e = make(ExprKind::UnaryOp, peek().pos);
            e->text = next().text;
            e->kids = {factor()};
            return e;
        }
        ExprPtr base = atomExpr();
        if (!atOp("**")) return base;
        auto e = make(ExprKind::BinOp, next().pos);
        e->text = "**";
        e->kids = {base, factor()};
        return e;
    }

    ExprPtr atomExpr()
    {
        ExprPtr e = atom();
        while (true) {
            if (atOp("(")) {
                auto call = make(ExprKind::Call, e->pos);
                next();
                call->kids.push_back(e);
                while (!atOp(")")) {
                    if (atOp("*") || atOp("**")) throw SyntaxError(peek().pos, "not supported by the simulator: argument unpacking");
                    if (at(TokenKind::Name) && peek(1).kind == TokenKind::Op && peek(1).text == "=") {
                        const Token& name = next();
                        next();
                        call->keywords.push_back({name.text, expression(), name.pos});
                    } else {
                        if (!call->keywords.empty()) throw SyntaxError(peek().pos, "a positional argument cannot follow a keyword argument");
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

    ExprPtr subscript()
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

    ExprPtr atom()
    {
        const Token& t = next();
        switch (t.kind) {
        case TokenKind::Name: {
            if (t.text == "True" || t.text == "False" || t.text == "None")
                return make(t.text == "True" ? ExprKind::True : t.text == "False" ? ExprKind::False : ExprKind::None, t.pos);
            static const char* const kKeywords[] = {"def", "for", "if", "else", "while", "return", "in", "and", "or", "not", "import", "from", "class", "pass", "lambda", "is"};
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
            const bool prefixed = t.text.size() > 2 && t.text[0] == '0' && std::isalpha(static_cast<unsigned char>(t.text[1]));
            const int base = !prefixed ? 10 : (t.text[1] == 'x' || t.text[1] == 'X') ? 16 : (t.text[1] == 'o' || t.text[1] == 'O') ? 8 : 2;
            e->intValue = std::strtoll(t.text.c_str() + (prefixed ? 2 : 0), nullptr, base);
            if (errno == ERANGE) throw SyntaxError(t.pos, "integer " + t.text + " does not fit in 64 bits");
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
            while (at(TokenKind::String)) e->text += next().text; // implicit concatenation
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
                    while (acceptOp(",") && !atOp(")")) tuple->kids.push_back(expression());
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
                    if (atName("for")) throw SyntaxError(peek().pos, "not supported by the simulator: comprehensions");
                    if (!acceptOp(",")) break;
                }
                list->end = expectOp(close).end;
                return list;
            }
            break;
        }
        default: break;
        }
        throw SyntaxError(t.pos, "unexpected " + describe(t));
    }

    static constexpr int kMaxNesting = 200;
    std::vector<Token> m_tokens;
    std::size_t m_at = 0;
    int m_nesting = 0;
    const std::string& m_file;
    Diagnostics& m_diagnostics;
};

} // namespace

Module parseKernel(std::string_view source, const std::string& file, Diagnostics& diagnostics)
{
    Diagnostics lexical;
    std::vector<Token> tokens = tokenize(source, file, lexical);
    diagnostics.insert(diagnostics.end(), lexical.begin(), lexical.end());
    if (hasErrors(lexical)) return {}; // token errors make every later message noise
    return Parser(std::move(tokens), file, diagnostics).module();
}

} // namespace ptowb::kernel
