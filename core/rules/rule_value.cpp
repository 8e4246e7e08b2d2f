#include "rules/rule_value.h"

#include "rules/shape_functions.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace ptowb::rules {

Value Value::ofInt(std::int64_t v)
{
    Value r;
    r.type = Type::Int;
    r.i = v;
    return r;
}

Value Value::ofFloat(double v)
{
    Value r;
    r.type = Type::Float;
    r.f = v;
    return r;
}

Value Value::ofBool(bool v)
{
    Value r;
    r.type = Type::Bool;
    r.i = v ? 1 : 0;
    return r;
}

Value Value::ofStr(std::string v)
{
    Value r;
    r.type = Type::Str;
    r.s = std::move(v);
    return r;
}

Value Value::ofDType(DType v)
{
    Value r;
    r.type = Type::DType;
    r.dtype = v;
    return r;
}

Value Value::ofShape(std::vector<std::int64_t> v)
{
    Value r;
    r.type = Type::Shape;
    r.ints = std::move(v);
    return r;
}

Value Value::ofFloatList(std::vector<double> v)
{
    Value r;
    r.type = Type::FloatList;
    r.floats = std::move(v);
    return r;
}

std::string formatFloat(double v)
{
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[32];
    for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*g", precision, v);
        if (std::strtod(buf, nullptr) == v) break;
    }
    std::string s = buf;
    if (s.find_first_of(".en") == std::string::npos) s += ".0";
    return s;
}

std::string Value::toString() const
{
    switch (type) {
    case Type::Int:
        return std::to_string(i);
    case Type::Float:
        return formatFloat(f);
    case Type::Bool:
        return i ? "True" : "False";
    case Type::Str:
        return "'" + s + "'";
    case Type::DType:
        return std::string(dtypeName(dtype));
    case Type::Shape:
        return shapefn::toString(ints);
    case Type::FloatList: {
        std::string out = "[";
        for (std::size_t k = 0; k < floats.size(); ++k) {
            if (k) out += ", ";
            out += formatFloat(floats[k]);
        }
        return out + "]";
    }
    default:
        return "<?>";
    }
}

bool Value::operator==(const Value& o) const
{
    if (isNumeric(type) && isNumeric(o.type)) {
        if (type == Type::Int && o.type == Type::Int) return i == o.i;
        return asDouble() == o.asDouble();
    }
    if (isList(type) && isList(o.type)) {
        if (listSize() != o.listSize()) return false;
        for (std::size_t k = 0; k < listSize(); ++k)
            if (listElement(k) != o.listElement(k)) return false;
        return true;
    }
    if (type != o.type) return false;
    switch (type) {
    case Type::Bool:
        return i == o.i;
    case Type::Str:
        return s == o.s;
    case Type::DType:
        return dtype == o.dtype;
    default:
        return false;
    }
}

} // namespace ptowb::rules
