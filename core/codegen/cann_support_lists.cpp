#include "codegen/cann_support.h"

namespace ptowb::codegen {

namespace {

// Lists and the shape functions, with the workbench evaluator's semantics on known values
// (core/rules/rule_evaluator.cpp, shape_functions.cpp) and GE's unknown dims and ranks.
constexpr const char* kLists = R"CPP(
template <class T> inline List<T> unknownList()
{
    List<T> l;
    l.known = false;
    return l;
}
inline Shape shapeList(std::initializer_list<Int> items)
{
    Shape l;
    l.items.assign(items.begin(), items.end());
    l.known = true;
    return l;
}
inline Floats floatList(std::initializer_list<Float> items)
{
    Floats l;
    l.items.assign(items.begin(), items.end());
    l.known = true;
    return l;
}
inline Shape shapeValues(const std::vector<std::int64_t>& values)
{
    Shape l;
    l.known = true;
    for (std::size_t k = 0; k < values.size(); ++k) l.items.push_back(intOf(values[k]));
    return l;
}
inline Floats floatValues(const std::vector<double>& values)
{
    Floats l;
    l.known = true;
    for (std::size_t k = 0; k < values.size(); ++k) l.items.push_back(floatOf(values[k]));
    return l;
}
inline Floats toFloats(const Shape& s)
{
    Floats out;
    out.known = s.known;
    for (std::size_t k = 0; k < s.items.size(); ++k) out.items.push_back(toFloat(s.items[k]));
    return out;
}
inline const Floats& toFloats(const Floats& f) { return f; }

template <class T> inline bool allKnown(const List<T>& l)
{
    if (!l.known) return false;
    for (std::size_t k = 0; k < l.items.size(); ++k)
        if (!l.items[k].known) return false;
    return true;
}

// GE's dims: UNKNOWN_DIM (-1) is an unknown dim, UNKNOWN_RANK ({-2}) an unknown rank.
inline Shape fromGeDims(const std::vector<std::int64_t>& dims)
{
    if (dims.size() == 1 && dims[0] == -2) return unknownList<std::int64_t>();
    Shape s;
    s.known = true;
    for (std::size_t k = 0; k < dims.size(); ++k) s.items.push_back(dims[k] < 0 ? unknown<std::int64_t>() : intOf(dims[k]));
    return s;
}
inline std::vector<std::int64_t> toGeDims(const Shape& s)
{
    if (!s.known) return std::vector<std::int64_t>(1, -2);
    std::vector<std::int64_t> dims;
    for (std::size_t k = 0; k < s.items.size(); ++k) {
        if (s.items[k].known && s.items[k].value < 0) throw RuleError("the rules give the negative dim " + text(s.items[k].value));
        dims.push_back(s.items[k].known ? s.items[k].value : -1);
    }
    return dims;
}
inline Bool rankIs(const Shape& s, std::size_t rank) { return s.known ? boolOf(s.items.size() == rank) : unknown<bool>(); }

inline Int len(const Shape& l) { return l.known ? intOf(std::int64_t(l.items.size())) : unknown<std::int64_t>(); }
inline Int len(const Floats& l) { return l.known ? intOf(std::int64_t(l.items.size())) : unknown<std::int64_t>(); }

template <class T> inline Maybe<T> index(const List<T>& list, const Int& i)
{
    if (!list.known || !i.known) return unknown<T>();
    const std::int64_t n = std::int64_t(list.items.size());
    if (i.value < -n || i.value >= n) throw RuleError("index " + text(i.value) + " is out of range for a list of length " + text(n));
    return list.items[std::size_t(i.value < 0 ? i.value + n : i.value)];
}

// One bound of a slice: absent, or a value that may be unknown.
struct Part
{
    bool given;
    Int value;
};
inline Part part(const Int& v)
{
    Part p = {true, v};
    return p;
}
inline Part noPart()
{
    Part p = {false, intOf(0)};
    return p;
}
inline std::int64_t sliceBound(const Part& p, std::int64_t fallback, std::int64_t size, std::int64_t step)
{
    if (!p.given) return fallback;
    std::int64_t v = p.value.value;
    if (v < 0) v = std::max<std::int64_t>(v + size, step > 0 ? 0 : -1);
    return std::min<std::int64_t>(v, step > 0 ? size : size - 1);
}
template <class T> inline List<T> slice(const List<T>& list, const Part& lower, const Part& upper, const Part& stepPart)
{
    if (stepPart.given && stepPart.value.known && stepPart.value.value == 0) throw RuleError("slice step cannot be zero");
    const bool partsKnown = (!lower.given || lower.value.known) && (!upper.given || upper.value.known) && (!stepPart.given || stepPart.value.known);
    if (!list.known || !partsKnown) return unknownList<T>();
    const std::int64_t size = std::int64_t(list.items.size());
    const std::int64_t step = stepPart.given ? stepPart.value.value : 1;
    const std::int64_t start = sliceBound(lower, step > 0 ? 0 : size - 1, size, step);
    const std::int64_t stop = sliceBound(upper, step > 0 ? size : -1, size, step);
    List<T> out;
    out.known = true;
    for (std::int64_t k = start; step > 0 ? k < stop : k > stop; k += step) out.items.push_back(list.items[std::size_t(k)]);
    return out;
}

template <class T> inline List<T> concat(const List<T>& a, const List<T>& b)
{
    if (!a.known || !b.known) return unknownList<T>();
    if (a.items.size() + b.items.size() > 1000000) throw RuleError("list concatenation is too large");
    List<T> out = a;
    out.items.insert(out.items.end(), b.items.begin(), b.items.end());
    return out;
}
template <class T> inline List<T> repeat(const List<T>& list, const Int& times)
{
    if (!times.known) return unknownList<T>();
    List<T> out;
    out.known = true;
    if (times.value <= 0) return out;
    if (!list.known) return unknownList<T>();
    const std::int64_t size = std::int64_t(list.items.size());
    if (size == 0) return out; // [] * n is [] for any n, without counting to n
    if (times.value > 1000000 / size) throw RuleError("list repetition is too large");
    for (std::int64_t k = 0; k < times.value; ++k) out.items.insert(out.items.end(), list.items.begin(), list.items.end());
    return out;
}

// Python compares list elements as numbers: [1, 2] == [1.0, 2.0].
template <class A, class B> inline Bool listEq(const List<A>& a, const List<B>& b)
{
    if (!a.known || !b.known) return unknown<bool>();
    if (a.items.size() != b.items.size()) return boolOf(false);
    bool allKnownItems = true;
    for (std::size_t k = 0; k < a.items.size(); ++k) {
        if (!a.items[k].known || !b.items[k].known) allKnownItems = false;
        else if (double(a.items[k].value) != double(b.items[k].value)) return boolOf(false);
    }
    return allKnownItems ? boolOf(true) : unknown<bool>();
}
template <class A, class B> inline Bool listNe(const List<A>& a, const List<B>& b) { return notOf(listEq(a, b)); }

template <class T> inline Bool contains(const List<T>& list, const Maybe<T>& v)
{
    if (list.known && list.items.empty()) return boolOf(false);
    if (!list.known || !v.known) return unknown<bool>();
    bool allKnownItems = true;
    for (std::size_t k = 0; k < list.items.size(); ++k) {
        if (!list.items[k].known) allKnownItems = false;
        else if (list.items[k].value == v.value) return boolOf(true);
    }
    return allKnownItems ? boolOf(false) : unknown<bool>();
}

template <class T> inline Maybe<T> extreme(const List<T>& list, bool smallest, const char* name)
{
    if (list.known && list.items.empty()) throw RuleError(std::string(name) + "() of an empty list");
    if (!allKnown(list)) return unknown<T>();
    T best = list.items[0].value;
    for (std::size_t k = 1; k < list.items.size(); ++k)
        best = smallest ? std::min(best, list.items[k].value) : std::max(best, list.items[k].value);
    return known<T>(best);
}
template <class T> inline Maybe<T> minOf(const List<T>& list) { return extreme(list, true, "min"); }
template <class T> inline Maybe<T> maxOf(const List<T>& list) { return extreme(list, false, "max"); }
inline Int minN(std::initializer_list<Int> v) { return minOf(shapeList(v)); }
inline Int maxN(std::initializer_list<Int> v) { return maxOf(shapeList(v)); }
inline Float minN(std::initializer_list<Float> v) { return minOf(floatList(v)); }
inline Float maxN(std::initializer_list<Float> v) { return maxOf(floatList(v)); }

inline Int prod(const Shape& s)
{
    if (!allKnown(s)) return unknown<std::int64_t>();
    std::int64_t r = 1;
    for (std::size_t k = 0; k < s.items.size(); ++k) r = checkedMul(r, s.items[k].value);
    return intOf(r);
}
inline Int sum(const Shape& s)
{
    if (!allKnown(s)) return unknown<std::int64_t>();
    std::int64_t r = 0;
    for (std::size_t k = 0; k < s.items.size(); ++k) r = checkedAdd(r, s.items[k].value);
    return intOf(r);
}
inline Float prod(const Floats& f)
{
    if (!allKnown(f)) return unknown<double>();
    double r = 1;
    for (std::size_t k = 0; k < f.items.size(); ++k) r *= f.items[k].value;
    return floatOf(r);
}
inline Float sum(const Floats& f)
{
    if (!allKnown(f)) return unknown<double>();
    double r = 0;
    for (std::size_t k = 0; k < f.items.size(); ++k) r += f.items[k].value;
    return floatOf(r);
}

// NumPy broadcasting. Against an unknown dim, a known dim other than 1 is the result (the
// unknown one must be 1 or equal to it); a known 1 leaves the result unknown.
inline Shape broadcast(std::initializer_list<Shape> shapes)
{
    Shape result = shapeList({});
    for (const Shape* s = shapes.begin(); s != shapes.end(); ++s)
        if (!s->known) return unknownList<std::int64_t>();
    for (const Shape* s = shapes.begin(); s != shapes.end(); ++s) {
        if (s->items.size() > result.items.size()) result.items.insert(result.items.begin(), s->items.size() - result.items.size(), intOf(1));
        for (std::size_t k = 0; k < s->items.size(); ++k) {
            Int& into = result.items[result.items.size() - s->items.size() + k];
            const Int& dim = s->items[k];
            if (!dim.known) {
                if (into.known && into.value == 1) into = dim;
                continue;
            }
            if (dim.value == 1 || (into.known && dim.value == into.value)) continue;
            if (!into.known || into.value == 1) {
                into = dim;
                continue;
            }
            throw RuleError("broadcast: cannot broadcast dim " + text(dim.value) + " with " + text(into.value));
        }
    }
    return result;
}

inline std::size_t normalizeDim(std::int64_t dim, std::size_t rank)
{
    const std::int64_t r = std::int64_t(rank);
    if (dim < -r || dim >= r) throw RuleError("dim " + text(dim) + " is out of range for rank " + text(r));
    return std::size_t(dim < 0 ? dim + r : dim);
}

inline Shape reduce(const Shape& s, const Shape& dims, const Bool& keepdim)
{
    if (!allKnown(dims) || !keepdim.known) {
        if (!s.known || !keepdim.known || !keepdim.value) return unknownList<std::int64_t>();
        Shape out = s;
        for (std::size_t k = 0; k < out.items.size(); ++k) out.items[k] = unknown<std::int64_t>();
        return out;
    }
    if (!s.known) return dims.items.empty() && !keepdim.value ? shapeList({}) : unknownList<std::int64_t>();
    std::vector<bool> reduced(s.items.size(), dims.items.empty());
    for (std::size_t k = 0; k < dims.items.size(); ++k) {
        const std::size_t d = normalizeDim(dims.items[k].value, s.items.size());
        if (reduced[d]) throw RuleError("reduce: dim " + text(dims.items[k].value) + " is listed twice");
        reduced[d] = true;
    }
    Shape out = shapeList({});
    for (std::size_t k = 0; k < s.items.size(); ++k) {
        if (!reduced[k]) out.items.push_back(s.items[k]);
        else if (keepdim.value) out.items.push_back(intOf(1));
    }
    return out;
}

inline Shape transpose(const Shape& s, const Int& d0, const Int& d1)
{
    if (!s.known) return unknownList<std::int64_t>();
    Shape out = s;
    if (!d0.known || !d1.known) {
        for (std::size_t k = 0; k < out.items.size(); ++k) out.items[k] = unknown<std::int64_t>();
        return out;
    }
    const std::size_t a = normalizeDim(d0.value, s.items.size());
    const std::size_t b = normalizeDim(d1.value, s.items.size());
    std::swap(out.items[a], out.items[b]);
    return out;
}

// torch.matmul's result shape after optionally transposing the last two dims of a and b. An
// unknown transpose flag leaves those two dims unknown.
inline void transposeLast(Shape& s, const Bool& flag)
{
    if (s.items.size() < 2) return;
    Int& x = s.items[s.items.size() - 1];
    Int& y = s.items[s.items.size() - 2];
    if (!flag.known) x = y = unknown<std::int64_t>();
    else if (flag.value) std::swap(x, y);
}
inline Shape matmulShape(Shape a, Shape b, const Bool& transA, const Bool& transB)
{
    if (a.known && a.items.empty()) throw RuleError("matmul_shape: matmul needs tensors of rank >= 1; a is a scalar");
    if (b.known && b.items.empty()) throw RuleError("matmul_shape: matmul needs tensors of rank >= 1; b is a scalar");
    if (!a.known || !b.known) return unknownList<std::int64_t>();
    transposeLast(a, transA);
    transposeLast(b, transB);
    const bool vectorA = a.items.size() == 1, vectorB = b.items.size() == 1;
    if (vectorA) a.items.insert(a.items.begin(), intOf(1));
    if (vectorB) b.items.push_back(intOf(1));
    const Int& ka = a.items[a.items.size() - 1];
    const Int& kb = b.items[b.items.size() - 2];
    if (ka.known && kb.known && ka.value != kb.value)
        throw RuleError("matmul_shape: matmul inner dimensions differ: " + text(ka.value) + " vs " + text(kb.value));
    Shape batchA = a, batchB = b;
    batchA.items.resize(a.items.size() - 2);
    batchB.items.resize(b.items.size() - 2);
    Shape out = broadcast({batchA, batchB});
    if (!vectorA) out.items.push_back(a.items[a.items.size() - 2]);
    if (!vectorB) out.items.push_back(b.items[b.items.size() - 1]);
    return out;
}

inline DT promote(std::initializer_list<DT> dtypes)
{
    DT out = *dtypes.begin();
    for (const DT* d = dtypes.begin(); d != dtypes.end(); ++d) {
        if (!d->known || !out.known) return unknown<DType>();
        out = dtypeOf(promotePair(out.value, d->value));
    }
    return out;
}
)CPP";

} // namespace

std::string cannRuleSupportLists()
{
    return kLists;
}

std::string cannRuleSupport()
{
    return "namespace {\nnamespace ptowb_Rt {\n" + cannRuleSupportValues() +
           cannRuleSupportLists() + "\n} // namespace ptowb_Rt\n} // namespace\n";
}

} // namespace ptowb::codegen
