#pragma once

// What generated C++ (Meta kernels, ONNX shape inference, CANN InferShape) calls to evaluate
// a rule with exactly the semantics of the workbench's evaluator: Python-style indexing,
// floor division, checked 64-bit arithmetic, and the shape functions. Errors throw RuleError.
#include "rules/rule_builtins.h"
#include "rules/shape_functions.h"
#include "types/dtype.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ptowb::emitted {

using Shape = std::vector<std::int64_t>;
using Floats = std::vector<double>;

struct RuleError : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

inline std::int64_t add(std::int64_t a, std::int64_t b)
{
    std::int64_t r;
    if (!rules::checkedAdd(a, b, r))
        throw RuleError("integer overflow in " + std::to_string(a) + " + " + std::to_string(b));
    return r;
}
inline std::int64_t sub(std::int64_t a, std::int64_t b)
{
    std::int64_t r;
    if (__builtin_sub_overflow(a, b, &r))
        throw RuleError("integer overflow in " + std::to_string(a) + " - " + std::to_string(b));
    return r;
}
inline std::int64_t mul(std::int64_t a, std::int64_t b)
{
    std::int64_t r;
    if (!rules::checkedMul(a, b, r))
        throw RuleError("integer overflow in " + std::to_string(a) + " * " + std::to_string(b));
    return r;
}
inline std::int64_t neg(std::int64_t a)
{
    if (a == INT64_MIN) throw RuleError("integer overflow in negation");
    return -a;
}
inline double neg(double a)
{
    return -a;
}
inline std::int64_t floorDiv(std::int64_t a, std::int64_t b)
{
    if (b == 0) throw RuleError("integer division by zero");
    if (a == INT64_MIN && b == -1) throw RuleError("integer overflow in division");
    std::int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}
inline std::int64_t mod(std::int64_t a, std::int64_t b)
{
    if (b == 0) throw RuleError("modulo by zero");
    if (a == INT64_MIN && b == -1) throw RuleError("integer overflow in modulo");
    std::int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}
inline double div(double a, double b)
{
    if (b == 0) throw RuleError("division by zero");
    return a / b;
}
inline std::int64_t ceilDiv(std::int64_t a, std::int64_t b)
{
    return neg(floorDiv(neg(a), b));
}

inline std::int64_t absolute(std::int64_t a)
{
    return a < 0 ? neg(a) : a;
}
inline double absolute(double a)
{
    return a < 0 ? -a : a;
}

template <class T> T index(const std::vector<T>& list, std::int64_t i)
{
    const auto n = std::int64_t(list.size());
    if (i < -n || i >= n)
        throw RuleError("index " + std::to_string(i) + " is out of range for a list of length " +
                        std::to_string(n));
    return list[std::size_t(i < 0 ? i + n : i)];
}

template <class T>
std::vector<T> slice(const std::vector<T>& list, std::optional<std::int64_t> lower,
                     std::optional<std::int64_t> upper, std::optional<std::int64_t> stepOr)
{
    const auto size = std::int64_t(list.size());
    const std::int64_t step = stepOr.value_or(1);
    if (step == 0) throw RuleError("slice step cannot be zero");
    auto bound = [&](std::optional<std::int64_t> part, std::int64_t fallback) {
        if (!part) return fallback;
        std::int64_t v = *part;
        if (v < 0) v = std::max<std::int64_t>(v + size, step > 0 ? 0 : -1);
        return std::min<std::int64_t>(v, step > 0 ? size : size - 1);
    };
    const std::int64_t start = bound(lower, step > 0 ? 0 : size - 1);
    const std::int64_t stop = bound(upper, step > 0 ? size : -1);
    std::vector<T> out;
    for (std::int64_t k = start; step > 0 ? k < stop : k > stop; k += step)
        out.push_back(list[std::size_t(k)]);
    return out;
}

template <class T> std::vector<T> concat(std::vector<T> a, const std::vector<T>& b)
{
    if (a.size() + b.size() > std::size_t(rules::kMaxRuleListLength))
        throw RuleError("list concatenation is too long");
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

template <class T> std::vector<T> repeat(const std::vector<T>& list, std::int64_t times)
{
    std::vector<T> out;
    // An empty list or a count <= 0 gives [] without looping `times` times.
    if (list.empty() || times <= 0) return out;
    std::int64_t total = 0;
    if (!rules::checkedMul(std::int64_t(list.size()), times, total) ||
        total > rules::kMaxRuleListLength)
        throw RuleError("list repetition is too large");
    for (std::int64_t k = 0; k < times; ++k)
        out.insert(out.end(), list.begin(), list.end());
    return out;
}

inline Floats toFloats(const Shape& s)
{
    return Floats(s.begin(), s.end());
}
inline const Floats& toFloats(const Floats& f)
{
    return f;
}

template <class A, class B> bool listEqual(const std::vector<A>& a, const std::vector<B>& b)
{
    if (a.size() != b.size()) return false;
    for (std::size_t k = 0; k < a.size(); ++k)
        if (double(a[k]) != double(b[k])) return false;
    return true;
}

template <class T, class V> bool contains(const std::vector<T>& list, V v)
{
    return std::any_of(list.begin(), list.end(), [&](T x) { return double(x) == double(v); });
}

template <class T> T minOf(const std::vector<T>& list)
{
    if (list.empty()) throw RuleError("min() of an empty list");
    return *std::min_element(list.begin(), list.end());
}
template <class T> T maxOf(const std::vector<T>& list)
{
    if (list.empty()) throw RuleError("max() of an empty list");
    return *std::max_element(list.begin(), list.end());
}

inline std::int64_t prod(const Shape& s)
{
    std::int64_t r = 1;
    for (auto v : s)
        r = mul(r, v);
    return r;
}
inline double prod(const Floats& f)
{
    double r = 1;
    for (auto v : f)
        r *= v;
    return r;
}
inline std::int64_t sum(const Shape& s)
{
    std::int64_t r = 0;
    for (auto v : s)
        r = add(r, v);
    return r;
}
inline double sum(const Floats& f)
{
    double r = 0;
    for (auto v : f)
        r += v;
    return r;
}

inline Shape unwrap(shapefn::ShapeResult r, const char* function)
{
    if (auto* e = std::get_if<shapefn::ShapeError>(&r))
        throw RuleError(std::string(function) + ": " + e->message);
    return std::move(std::get<Shape>(r));
}

template <class... S> Shape broadcast(const S&... shapes)
{
    const Shape all[] = {shapes...};
    return unwrap(shapefn::broadcast(all), "broadcast");
}
inline Shape reduce(const Shape& s, std::int64_t dim, bool keepdim = false)
{
    const std::int64_t dims[] = {dim};
    return unwrap(shapefn::reduce(s, dims, keepdim), "reduce");
}
inline Shape reduce(const Shape& s, const Shape& dims, bool keepdim = false)
{
    return unwrap(shapefn::reduce(s, dims, keepdim), "reduce");
}
inline Shape transpose(const Shape& s, std::int64_t d0, std::int64_t d1)
{
    return unwrap(shapefn::transpose(s, d0, d1), "transpose");
}
inline Shape matmulShape(const Shape& a, const Shape& b, bool ta = false, bool tb = false)
{
    return unwrap(shapefn::matmul(a, b, ta, tb), "matmul_shape");
}
template <class... D> DType promote(DType first, D... rest)
{
    DType out = first;
    ((out = promoteTypes(out, rest)), ...);
    return out;
}

} // namespace ptowb::emitted
