#pragma once

// The recursive-descent parser of Python source, internal to core/kernel: tokens and simple
// statements are in kernel_parser.cpp, compound statements (blocks, functions, classes, match)
// in kernel_parser_compound.cpp, operators in kernel_parser_expressions.cpp, primaries in
// kernel_parser_atoms.cpp.
#include "kernel/kernel_parser.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace ptowb::kernel {

// and, as, ..., yield: names Python reserves (match, case, type and _ are names too).
bool isHardKeyword(const std::string& word);

struct SyntaxError : std::runtime_error
{
    SyntaxError(Pos p, const std::string& message) : std::runtime_error(message), pos(p) {}
    Pos pos;
};

class Parser
{
public:
    Parser(std::vector<Token> tokens, const std::string& file, Diagnostics& diagnostics);
    Module module();

private:
    // --- tokens ---
    const Token& peek(int ahead = 0) const
    {
        return m_tokens[std::min(m_at + std::size_t(ahead), m_tokens.size() - 1)];
    }
    bool at(TokenKind kind) const { return peek().kind == kind; }
    bool atOp(const char* op, int ahead = 0) const
    {
        return peek(ahead).kind == TokenKind::Op && peek(ahead).text == op;
    }
    bool atName(const char* name, int ahead = 0) const
    {
        return peek(ahead).kind == TokenKind::Name && peek(ahead).text == name;
    }
    const Token& next() { return m_tokens[std::min(m_at++, m_tokens.size() - 1)]; }
    bool accept(TokenKind kind);
    bool acceptOp(const char* op);
    bool acceptName(const char* name);
    std::string describe(const Token& t) const;
    const Token& expectOp(const char* op);
    const Token& expectName(const char* what);
    void expectNewline();
    // Skips the rest of a broken statement, and the block it would have opened.
    void recover();
    void report(Pos pos, const std::string& message, const std::string& code);
    bool atSimpleEnd() const;
    // A soft keyword (match, case, type) starts a statement only where the rest reads as one.
    bool looksLikeMatch();

    // --- statements (kernel_parser.cpp) ---
    void statementInto(std::vector<Stmt>& body);
    void simpleStatements(std::vector<Stmt>& body);
    Stmt simple();
    Stmt importStatement();
    std::string dotted();
    ExprPtr assignmentValue();

    // --- compound statements (kernel_parser_compound.cpp) ---
    std::vector<Stmt> suite();
    Stmt compound();
    Stmt decorated();
    Stmt functionDef(std::vector<ExprPtr> decorators, Pos pos);
    Stmt classDef(std::vector<ExprPtr> decorators, Pos pos);
    void typeParams(std::vector<ExprPtr>& into);
    std::vector<Param> parameters(const char* close, bool annotations);
    Stmt forStatement(Pos pos);
    Stmt tryStatement(Pos pos);
    Stmt withStatement(Pos pos);
    Stmt matchStatement(Pos pos);
    ExprPtr pattern();

    // --- expressions (kernel_parser_expressions.cpp) ---
    std::shared_ptr<Expr> make(ExprKind kind, Pos pos);
    ExprPtr targetList();
    ExprPtr starExpressions();
    ExprPtr starExpression();
    ExprPtr namedExpression();
    ExprPtr expression();
    ExprPtr lambda();
    ExprPtr yieldExpression();
    ExprPtr orTest();
    ExprPtr andTest();
    ExprPtr notTest();
    ExprPtr comparison();
    ExprPtr binary(ExprPtr (Parser::*operand)(), std::initializer_list<const char*> ops);
    ExprPtr orExpr() { return binary(&Parser::xorExpr, {"|"}); }
    ExprPtr xorExpr() { return binary(&Parser::andExpr, {"^"}); }
    ExprPtr andExpr() { return binary(&Parser::shiftExpr, {"&"}); }
    ExprPtr shiftExpr() { return binary(&Parser::arith, {"<<", ">>"}); }
    ExprPtr arith() { return binary(&Parser::term, {"+", "-"}); }
    ExprPtr term() { return binary(&Parser::factor, {"*", "/", "//", "%", "@"}); }

    ExprPtr factor();
    ExprPtr power();
    ExprPtr atomExpr();
    void arguments(Expr& call);
    ExprPtr subscript();
    ExprPtr atom();
    ExprPtr bracketed(const Token& open);
    // `for x in xs if c ...` after a comprehension's element, into `into`'s kids.
    void comprehensionClauses(Expr& into);

    // Bounds on what a file builds, so no hostile file overflows the stack when the tree is
    // built, checked or freed: recursion (brackets, unary operators, **, lambdas, nested
    // blocks) and the operators of left-to-right chains (a + b + ..., a.b.c, f(x)(y)), counted
    // per top-level expression. CPython itself stops at 200 nested brackets and 100 blocks.
    static constexpr int kMaxNesting = 200;
    static constexpr int kMaxChain = 4000;
    static constexpr int kMaxBlocks = 100;
    void link();
    struct Nested
    {
        explicit Nested(Parser& p);
        ~Nested() { --parser.m_nesting; }
        Parser& parser;
    };
    int m_chain = 0;
    int m_blocks = 0;
    bool m_inPattern = false; // `as` binds a name after any sub-pattern
    std::vector<Token> m_tokens;
    std::size_t m_at = 0;
    int m_nesting = 0;
    const std::string& m_file;
    Diagnostics& m_diagnostics;
};

} // namespace ptowb::kernel
