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
    Call,      // kids[0](kids[1..], keywords); `*a` is a Starred kid, `**k` a keyword named ""
    Subscript, // kids[0][kids[1..]]
    Slice,     // kids: lower, upper, step (null when absent)
    Tuple,
    List,
    Set,
    Dict,      // Dict: key, value, key, value ...; `**m` is a Starred "**" key with a null value
    BinOp,     // text: + - * / // % ** @ << >> & | ^
    UnaryOp,   // text: - + not ~
    Compare,   // kids[0] ops[k] kids[k+1]
    BoolOp,    // text: and / or
    IfExp,     // kids: body, test, orelse
    Starred,   // text: * or **; kids[0]
    NamedExpr, // kids: target, value (`a := b`)
    Lambda,    // kids: body, then the parameters' defaults
    Comprehension, // text: [ { ( or {: (dict); kids: element(s), then every target, iterable, if
    Yield,         // text: yield / yield from; kids[0] when a value is given
    Await,         // kids[0]
};

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Keyword
{
    std::string name; // "" for `**mapping`
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
    While,
    If,
    With,
    Try,
    Match,
    Def,
    Class,
    Import,
    Pass,
    Return,
    Other // break, continue, del, global, raise, assert, type aliases ...: only `exprs` matter
};

struct FunctionDef;

struct Stmt
{
    StmtKind kind = StmtKind::Pass;
    Pos pos;
    Pos end;
    std::vector<ExprPtr> targets; // Assign: every `a = b = value` target; For: the loop variable;
                                  // With: the `as` targets
    ExprPtr value; // Assign/AugAssign/ExprStmt/Return value, For iterable, If/While test,
                   // Match subject
    // Every other expression the statement evaluates: annotations, with items, except types,
    // case guards, class bases and decorators, raise/assert/del operands.
    std::vector<ExprPtr> exprs;
    std::string op; // AugAssign operator ("+"), Class: its name
    std::vector<Stmt> body;
    std::vector<Stmt> orelse;   // else (If, For, While, Try), finally (Try)
    std::vector<Stmt> handlers; // Try: the except clauses; Match: the cases (each a Stmt)
    std::shared_ptr<const FunctionDef> function;            // Def
    std::vector<std::pair<std::string, std::string>> names; // Import: bound name -> module path
    // Import: every module path it names in full, relative ones with their dots: `import a.b` is
    // "a.b"; `from .p import n` is ".p.n" (n may be a module); `from q import *` is "q".
    std::vector<std::string> modules;
};

struct Param
{
    std::string name;
    Pos pos;
    ExprPtr annotation;
    ExprPtr defaultValue;
    std::string star; // "*" for *args, "**" for **kwargs
};

struct FunctionDef
{
    std::string name;
    Pos pos; // of `def`
    std::vector<ExprPtr> decorators;
    std::vector<Param> params;
    ExprPtr returns;
    std::vector<Stmt> body;
};

struct Module
{
    // Names bound by imports outside functions and classes ("pp" -> "pypto").
    std::vector<std::pair<std::string, std::string>> imports;
    std::vector<FunctionDef> functions; // the top-level `def`s
    std::vector<Stmt> statements;       // every top-level statement, functions included
};

} // namespace ptowb::kernel
