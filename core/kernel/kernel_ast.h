#pragma once

#include "kernel/kernel_lexer.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ptowb::kernel {

enum class ExprKind
{
    Name,
    Int,
    Float,
    Str,
    True,
    False,
    None,
    Ellipsis,
    Attribute, // kids[0].text
    Call,      // kids[0](kids[1..], keywords)
    Subscript, // kids[0][kids[1..]]
    Slice,     // kids: lower, upper, step (null when absent)
    Tuple,
    List,
    Dict,    // Dict: key, value, key, value ...
    BinOp,   // text: + - * / // % ** @
    UnaryOp, // text: - + not ~
    Compare, // kids[0] ops[k] kids[k+1]
    BoolOp,  // text: and / or
    IfExp,   // kids: body, test, orelse
};

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Keyword
{
    std::string name;
    ExprPtr value;
    Pos pos;
};

struct Expr
{
    ExprKind kind = ExprKind::None;
    Pos pos;
    Pos end;
    std::string text; // name, attribute, operator, string value
    std::int64_t intValue = 0;
    double floatValue = 0;
    std::vector<ExprPtr> kids;
    std::vector<Keyword> keywords;
    std::vector<std::string> ops; // Compare
};

enum class StmtKind
{
    Assign,
    AugAssign,
    ExprStmt,
    For,
    If,
    Pass,
    Return,
    Unsupported
};

struct Stmt
{
    StmtKind kind = StmtKind::Pass;
    Pos pos;
    Pos end;
    std::vector<ExprPtr> targets; // Assign: every `a = b = value` target; For: the loop variable
    ExprPtr value;                // Assign/AugAssign/ExprStmt/Return value, For iterable, If test
    std::string op;               // AugAssign operator ("+"), Unsupported: the construct
    std::vector<Stmt> body;
    std::vector<Stmt> orelse;
};

struct Param
{
    std::string name;
    Pos pos;
    ExprPtr annotation;
    ExprPtr defaultValue;
};

struct FunctionDef
{
    std::string name;
    Pos pos; // of `def`
    std::vector<ExprPtr> decorators;
    std::vector<Param> params;
    std::vector<Stmt> body;
};

struct Module
{
    std::vector<std::pair<std::string, std::string>>
        imports; // bound name -> module path ("pypto" -> "pypto")
    std::vector<FunctionDef> functions;
};

} // namespace ptowb::kernel
