#include "codegen/cann_support.h"
#include "types/dtype.h"

namespace ptowb::codegen {

namespace {

// Scalars: the values a rule computes, each of which the graph may not know yet.
constexpr const char* kValues = R"CPP(
// Thrown when a rule fails on values the graph knows: an index out of range, a division by
// zero, an integer overflow. Unknown values never throw; they make the result unknown.
struct RuleError : std::runtime_error
{
    explicit RuleError(const std::string& what) : std::runtime_error(what) {}
};

template <class T> struct Maybe
{
    T value;
    bool known;
};
typedef Maybe<std::int64_t> Int;
typedef Maybe<double> Float;
typedef Maybe<bool> Bool;
typedef Maybe<std::string> Str;
typedef Maybe<DType> DT;

// A list whose length (a shape's rank) may be unknown; each element may be unknown as well.
template <class T> struct List
{
    std::vector<Maybe<T> > items;
    bool known;
};
typedef List<std::int64_t> Shape;
typedef List<double> Floats;

struct Tensor
{
    Shape shape;
    DT dtype;
};

template <class T> inline Maybe<T> known(const T& v)
{
    Maybe<T> m;
    m.value = v;
    m.known = true;
    return m;
}
template <class T> inline Maybe<T> unknown()
{
    Maybe<T> m;
    m.value = T();
    m.known = false;
    return m;
}
inline Int intOf(std::int64_t v) { return known<std::int64_t>(v); }
inline Float floatOf(double v) { return known<double>(v); }
inline Bool boolOf(bool v) { return known<bool>(v); }
inline Str strOf(const std::string& v) { return known<std::string>(v); }
inline DT dtypeOf(DType v) { return known<DType>(v); }

inline std::string text(std::int64_t v) { return std::to_string(static_cast<long long>(v)); }

const std::int64_t kMaxInt = std::numeric_limits<std::int64_t>::max();
const std::int64_t kMinInt = std::numeric_limits<std::int64_t>::min();

// 64-bit arithmetic that fails where Python's would leave the int64 range.
inline std::int64_t checkedAdd(std::int64_t a, std::int64_t b)
{
    if ((b > 0 && a > kMaxInt - b) || (b < 0 && a < kMinInt - b)) throw RuleError("integer overflow in " + text(a) + " + " + text(b));
    return a + b;
}
inline std::int64_t checkedSub(std::int64_t a, std::int64_t b)
{
    if ((b < 0 && a > kMaxInt + b) || (b > 0 && a < kMinInt + b)) throw RuleError("integer overflow in " + text(a) + " - " + text(b));
    return a - b;
}
inline std::int64_t checkedMul(std::int64_t a, std::int64_t b)
{
    bool overflow = false;
    if (a > 0) overflow = b > 0 ? a > kMaxInt / b : b < kMinInt / a;
    else if (a < 0) overflow = b > 0 ? a < kMinInt / b : (b < 0 && a < kMaxInt / b);
    if (overflow) throw RuleError("integer overflow in " + text(a) + " * " + text(b));
    return a * b;
}

inline bool bothKnown(const Int& a, const Int& b) { return a.known && b.known; }

inline Int add(const Int& a, const Int& b) { return bothKnown(a, b) ? intOf(checkedAdd(a.value, b.value)) : unknown<std::int64_t>(); }
inline Int sub(const Int& a, const Int& b) { return bothKnown(a, b) ? intOf(checkedSub(a.value, b.value)) : unknown<std::int64_t>(); }
inline Int mul(const Int& a, const Int& b) { return bothKnown(a, b) ? intOf(checkedMul(a.value, b.value)) : unknown<std::int64_t>(); }

// A known zero divisor fails whatever the dividend: no graph can make that division valid.
inline void checkDivisor(const Int& a, const Int& b, const char* what)
{
    if (b.known && b.value == 0) throw RuleError(std::string(what) + " by zero");
    if (bothKnown(a, b) && a.value == kMinInt && b.value == -1) throw RuleError(std::string("integer overflow in ") + what);
}
inline Int floorDiv(const Int& a, const Int& b)
{
    checkDivisor(a, b, "integer division");
    if (!bothKnown(a, b)) return unknown<std::int64_t>();
    std::int64_t q = a.value / b.value;
    if (a.value % b.value != 0 && ((a.value < 0) != (b.value < 0))) --q;
    return intOf(q);
}
inline Int mod(const Int& a, const Int& b)
{
    checkDivisor(a, b, "modulo");
    if (!bothKnown(a, b)) return unknown<std::int64_t>();
    std::int64_t r = a.value % b.value;
    if (r != 0 && ((r < 0) != (b.value < 0))) r += b.value;
    return intOf(r);
}
inline Int ceilDiv(const Int& a, const Int& b)
{
    checkDivisor(a, b, "ceil_div: division");
    if (!bothKnown(a, b)) return unknown<std::int64_t>();
    std::int64_t q = a.value / b.value;
    if (a.value % b.value != 0 && ((a.value < 0) == (b.value < 0))) ++q;
    return intOf(q);
}
inline Int neg(const Int& a)
{
    if (a.known && a.value == kMinInt) throw RuleError("integer overflow in negation");
    return a.known ? intOf(-a.value) : a;
}
inline Int absolute(const Int& a)
{
    if (a.known && a.value == kMinInt) throw RuleError("abs: integer overflow");
    return a.known ? intOf(a.value < 0 ? -a.value : a.value) : a;
}

inline Float toFloat(const Int& a) { return a.known ? floatOf(double(a.value)) : unknown<double>(); }
inline const Float& toFloat(const Float& a) { return a; }
inline Float add(const Float& a, const Float& b) { return a.known && b.known ? floatOf(a.value + b.value) : unknown<double>(); }
inline Float sub(const Float& a, const Float& b) { return a.known && b.known ? floatOf(a.value - b.value) : unknown<double>(); }
inline Float mul(const Float& a, const Float& b) { return a.known && b.known ? floatOf(a.value * b.value) : unknown<double>(); }
inline Float div(const Float& a, const Float& b)
{
    if (b.known && b.value == 0) throw RuleError("division by zero");
    return a.known && b.known ? floatOf(a.value / b.value) : unknown<double>();
}
inline Float neg(const Float& a) { return a.known ? floatOf(-a.value) : a; }
inline Float absolute(const Float& a) { return a.known ? floatOf(std::fabs(a.value)) : a; }
inline Str concatStr(const Str& a, const Str& b) { return a.known && b.known ? strOf(a.value + b.value) : unknown<std::string>(); }

template <class T> inline Bool lt(const Maybe<T>& a, const Maybe<T>& b) { return a.known && b.known ? boolOf(a.value < b.value) : unknown<bool>(); }
template <class T> inline Bool le(const Maybe<T>& a, const Maybe<T>& b) { return a.known && b.known ? boolOf(a.value <= b.value) : unknown<bool>(); }
template <class T> inline Bool gt(const Maybe<T>& a, const Maybe<T>& b) { return a.known && b.known ? boolOf(a.value > b.value) : unknown<bool>(); }
template <class T> inline Bool ge(const Maybe<T>& a, const Maybe<T>& b) { return a.known && b.known ? boolOf(a.value >= b.value) : unknown<bool>(); }
template <class T> inline Bool eq(const Maybe<T>& a, const Maybe<T>& b) { return a.known && b.known ? boolOf(a.value == b.value) : unknown<bool>(); }
template <class T> inline Bool ne(const Maybe<T>& a, const Maybe<T>& b) { return a.known && b.known ? boolOf(a.value != b.value) : unknown<bool>(); }

// Three-valued logic. The right operand is a callable so that it runs only where Python's
// `and`/`or` would run it; when the left one is unknown, an error on the right is unknown too.
inline Bool notOf(const Bool& a) { return a.known ? boolOf(!a.value) : a; }
template <class F> inline Bool andThen(const Bool& a, F rest)
{
    if (a.known) return a.value ? rest() : a;
    Bool b = unknown<bool>();
    try {
        b = rest();
    } catch (const RuleError&) {
        return unknown<bool>();
    }
    return b.known && !b.value ? b : unknown<bool>();
}
template <class F> inline Bool orElse(const Bool& a, F rest)
{
    if (a.known) return a.value ? a : rest();
    Bool b = unknown<bool>();
    try {
        b = rest();
    } catch (const RuleError&) {
        return unknown<bool>();
    }
    return b.known && b.value ? b : unknown<bool>();
}

template <class T> inline Maybe<T> merge(const Maybe<T>& a, const Maybe<T>& b)
{
    return a.known && b.known && a.value == b.value ? a : unknown<T>();
}
template <class T> inline List<T> merge(const List<T>& a, const List<T>& b)
{
    List<T> out;
    out.known = a.known && b.known && a.items.size() == b.items.size();
    if (out.known)
        for (std::size_t k = 0; k < a.items.size(); ++k) out.items.push_back(merge(a.items[k], b.items[k]));
    return out;
}

// `then if condition else otherwise`. An unknown condition gives what both branches agree on;
// a branch that fails is a world in which the op is invalid anyway, so the other one counts.
template <class F, class G> inline auto choose(const Bool& condition, F then, G otherwise) -> typename std::decay<decltype(then())>::type
{
    if (condition.known) return condition.value ? then() : otherwise();
    typedef typename std::decay<decltype(then())>::type Result;
    Result a = Result(), b = Result();
    bool haveA = true, haveB = true;
    try {
        a = then();
    } catch (const RuleError&) {
        haveA = false;
    }
    try {
        b = otherwise();
    } catch (const RuleError&) {
        if (!haveA) throw;
        haveB = false;
    }
    if (!haveA) return b;
    if (!haveB) return a;
    return merge(a, b);
}

// A constraint fails only when known values violate it; one that needs an unknown dim is
// checked again when the graph knows its shapes.
inline bool violated(const Bool& check) { return check.known && !check.value; }

inline void report(const char* opType, const std::string& message) { std::fprintf(stderr, "[ptowb] %s: %s\n", opType, message.c_str()); }
)CPP";

} // namespace

std::string cannSupportIncludes()
{
    return "#include <algorithm>\n#include <cmath>\n#include <cstddef>\n#include "
           "<cstdint>\n#include <cstdio>\n#include <initializer_list>\n#include <limits>\n"
           "#include <stdexcept>\n#include <string>\n#include <type_traits>\n#include <vector>\n";
}

std::string cannRuleSupportValues()
{
    // The dtype enumeration and torch's promotion come from core's one table, so the deployed
    // op promotes exactly as the workbench does.
    std::string dtypes = "enum class DType\n{\n";
    for (const auto& info : allDTypes())
        dtypes += "    " + std::string(info.cppEnum) + ",\n";
    dtypes += "};\n\ninline DType promotePair(DType a, DType b)\n{\n    static const unsigned char "
              "kTable[" +
              std::to_string(allDTypes().size()) + "][" + std::to_string(allDTypes().size()) +
              "] = {\n";
    for (const auto& a : allDTypes()) {
        dtypes += "        {";
        for (const auto& b : allDTypes())
            dtypes += (b.dtype == allDTypes().front().dtype ? "" : ", ") +
                      std::to_string(int(promoteTypes(a.dtype, b.dtype)));
        dtypes += "},\n";
    }
    dtypes += "    };\n    return DType(kTable[int(a)][int(b)]);\n}\n";
    return dtypes + kValues;
}

} // namespace ptowb::codegen
