#pragma once

// The recursive-descent parser of the kernel subset, internal to core/kernel: tokens and
// statements are in kernel_parser.cpp, expressions in kernel_parser_expressions.cpp.
#include "kernel/kernel_parser.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace ptowb::kernel {

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
    bool atOp(const char* op) const { return peek().kind == TokenKind::Op && peek().text == op; }
    bool atName(const char* name) const
    {
        return peek().kind == TokenKind::Name && peek().text == name;
    }
    const Token& next() { return m_tokens[std::min(m_at++, m_tokens.size() - 1)]; }
    bool accept(TokenKind kind);
    bool acceptOp(const char* op);
    std::string describe(const Token& t) const;
    const Token& expectOp(const char* op);
    const Token& expectName(const char* what);
    void expectNewline();
    // Skips the rest of a broken statement, and the block it would have opened.
    void recover();
    void report(Pos pos, const std::string& message, const std::string& code);

    // --- module level ---
    void topLevel(Module& m);
    std::string dotted();
    FunctionDef functionDef(std::vector<ExprPtr> decorators);
    std::vector<Stmt> suite();
    void compoundOrSimple(std::vector<Stmt>& body);
    Stmt compound();
    void simpleStatements(std::vector<Stmt>& body);
    Stmt statement();
    Stmt simple();

    // --- expressions ---
    std::shared_ptr<Expr> make(ExprKind kind, Pos pos);
    ExprPtr targetList();
    ExprPtr testList();
    ExprPtr expression();
    ExprPtr orTest();
    ExprPtr andTest();
    ExprPtr notTest();
    ExprPtr comparison();
    ExprPtr binary(ExprPtr (Parser::*operand)(), std::initializer_list<const char*> ops);
    ExprPtr orExpr() { return binary(&Parser::xorExpr, {"|"}); }
    ExprPtr xorExpr() { return binary(&Parser::andExpr, {"^"}); }
    ExprPtr andExpr() { return binary(&Parser::arith, {"&"}); }
    ExprPtr arith() { return binary(&Parser::term, {"+", "-"}); }
    ExprPtr term() { return binary(&Parser::factor, {"*", "/", "//", "%", "@"}); }

    ExprPtr factor();
    ExprPtr atomExpr();
    ExprPtr subscript();
    ExprPtr atom();
    // Bounds on the tree a statement builds, so no hostile file overflows the stack when the
    // tree is checked or freed: recursion (brackets, unary operators, **) and the operators of
    // left-to-right chains (a + b + ..., a.b.c, f(x)(y)), counted per top-level expression.
    static constexpr int kMaxNesting = 200;
    static constexpr int kMaxChain = 4000;
    void link();
    struct Nested
    {
        explicit Nested(Parser& p);
        ~Nested() { --parser.m_nesting; }
        Parser& parser;
    };
    int m_chain = 0;
    std::vector<Token> m_tokens;
    std::size_t m_at = 0;
    int m_nesting = 0;
    const std::string& m_file;
    Diagnostics& m_diagnostics;
};

} // namespace ptowb::kernel
