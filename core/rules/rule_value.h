#pragma once

#include "rules/rule_ast.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace ptowb::rules {

// A value of the rule language: a parameter value, or the result of evaluating a rule.
struct Value
{
    Type type = Type::Int;
    std::int64_t i = 0; // Int, Bool (0/1)
    double f = 0;       // Float
    DType dtype = DType::Float32;
    std::string s;
    std::vector<std::int64_t> ints; // Shape
    std::vector<double> floats;     // FloatList

    static Value ofInt(std::int64_t v);
    static Value ofFloat(double v);
    static Value ofBool(bool v);
    static Value ofStr(std::string v);
    static Value ofDType(DType v);
    static Value ofShape(std::vector<std::int64_t> v);
    static Value ofFloatList(std::vector<double> v);

    bool asBool() const { return i != 0; }
    double asDouble() const { return type == Type::Float ? f : double(i); }
    std::size_t listSize() const { return type == Type::Shape ? ints.size() : floats.size(); }
    double listElement(std::size_t k) const
    {
        return type == Type::Shape ? double(ints[k]) : floats[k];
    }

    // Python-like text: 4, 0.5, True, 'abc', float16, [4, 32].
    std::string toString() const;
    bool operator==(const Value& other) const;
};

// The shortest decimal text that reads back as exactly `v`, as Python's repr prints it
// ("0.5", "1e-05", "3.0"); "inf", "-inf" and "nan" for the non-finite values.
std::string formatFloat(double v);

// Shape and dtype of one op input, as the rules see it.
struct TensorInfo
{
    std::vector<std::int64_t> shape;
    DType dtype = DType::Float32;
};

// Concrete values for the names a rule may use, indexed by the slots the checker assigned.
struct RuleBindings
{
    std::span<const TensorInfo> inputs;
    std::span<const Value> params;
};

} // namespace ptowb::rules
