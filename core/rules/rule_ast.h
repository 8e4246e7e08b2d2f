#pragma once

#include "types/dtype.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ptowb::rules {

// Static types of the rule language. Shape is a list of ints, FloatList a list of floats.
enum class Type : std::uint8_t
{
    Int,
    Float,
    Bool,
    Str,
    DType,
    Shape,
    FloatList,
    Tensor,
    Error
};

const char* typeName(Type type);
inline bool isNumeric(Type t)
{
    return t == Type::Int || t == Type::Float;
}
inline bool isList(Type t)
{
    return t == Type::Shape || t == Type::FloatList;
}

// Byte offsets into the rule text, end exclusive.
struct Span
{
    std::uint32_t begin = 0;
    std::uint32_t end = 0;
};

struct RuleError
{
    Span span;
    std::string code;
    std::string message;
};

enum class NodeKind : std::uint8_t
{
    IntLit,
    FloatLit,
    BoolLit,
    StrLit,
    List,
    Name,     // resolved by the checker into Input, Param or DTypeLit
    Input,    // slot = index of the op input
    Param,    // slot = index of the op parameter
    DTypeLit, // dtype
    Attr,     // kids[0].attr
    Index,    // kids[0][kids[1]]
    Slice,    // kids = {lower, upper, step}, each may be null
    Unary,    // op applied to kids[0]
    Binary,   // kids[0] op kids[1]
    Compare,  // kids[0] ops[0] kids[1] ops[1] kids[2] ...
    And,
    Or,
    Not,
    IfElse, // kids = {then, condition, else}
    Call,   // builtin(kids...)
};

enum class Op : std::uint8_t
{
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Neg,
    Pos,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    NotIn
};
enum class Attr : std::uint8_t
{
    Shape,
    Rank,
    DType,
    Numel
};
enum class Builtin : std::uint8_t
{
    Min,
    Max,
    Abs,
    Len,
    Prod,
    Sum,
    CeilDiv,
    Broadcast,
    Promote,
    Reduce,
    Transpose,
    MatmulShape,
};

const char* opSpelling(Op op);
const char* attrName(Attr attr);
const char* builtinName(Builtin builtin); // rule_builtins.cpp, from the table of builtins

struct Node;
using NodePtr = std::unique_ptr<Node>;

// One node of a rule's syntax tree. After checking, every node carries its static type and
// names are resolved to slots, so an emitter can translate the tree without a symbol table.
struct Node
{
    NodeKind kind = NodeKind::IntLit;
    Type type = Type::Error;
    Span span;
    std::int64_t intValue = 0;
    double floatValue = 0;
    std::string text; // identifier, attribute or function name as written; string literal value
    int slot = -1;
    Op op = Op::Add;
    Attr attr = Attr::Shape;
    Builtin builtin = Builtin::Min;
    DType dtype = DType::Float32;
    std::vector<Op> ops;
    std::vector<NodePtr> kids;
};

// The one walk over a rule tree that the checker and the evaluator share: the visitor's handler
// for the node's kind (`NodeRef` is Node or const Node). The kinds are listed here only; a
// visitor has a handler for each group: literal, name, input, param, list, attribute, index,
// slice, unary, binary, compare, logical (and, or, not), ifElse, call.
template <class Visitor, class NodeRef> decltype(auto) visitNode(Visitor& visitor, NodeRef& n)
{
    switch (n.kind) {
    case NodeKind::IntLit:
    case NodeKind::FloatLit:
    case NodeKind::BoolLit:
    case NodeKind::StrLit:
    case NodeKind::DTypeLit:
        return visitor.literal(n);
    case NodeKind::Name:
        return visitor.name(n);
    case NodeKind::Input:
        return visitor.input(n);
    case NodeKind::Param:
        return visitor.param(n);
    case NodeKind::List:
        return visitor.list(n);
    case NodeKind::Attr:
        return visitor.attribute(n);
    case NodeKind::Index:
        return visitor.index(n);
    case NodeKind::Slice:
        return visitor.slice(n);
    case NodeKind::Unary:
        return visitor.unary(n);
    case NodeKind::Binary:
        return visitor.binary(n);
    case NodeKind::Compare:
        return visitor.compare(n);
    case NodeKind::And:
    case NodeKind::Or:
    case NodeKind::Not:
        return visitor.logical(n);
    case NodeKind::IfElse:
        return visitor.ifElse(n);
    case NodeKind::Call:
        return visitor.call(n);
    }
    return visitor.literal(n); // unreachable: every kind is listed
}

} // namespace ptowb::rules
