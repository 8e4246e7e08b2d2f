#include "rules/shape_functions.h"

#include <algorithm>

namespace ptowb::shapefn {

std::string toString(std::span<const std::int64_t> shape)
{
    std::string out = "[";
    for (std::size_t k = 0; k < shape.size(); ++k) {
        if (k) out += ", ";
        out += std::to_string(shape[k]);
    }
    return out + "]";
}

bool normalizeDim(std::int64_t dim, std::size_t rank, std::size_t& out)
{
    const auto r = std::int64_t(rank);
    if (dim < -r || dim >= r) return false;
    out = std::size_t(dim < 0 ? dim + r : dim);
    return true;
}

namespace {
std::string dimRangeError(std::int64_t dim, std::size_t rank)
{
    if (rank == 0) return "dim " + std::to_string(dim) + " is out of range for a rank-0 shape";
    return "dim " + std::to_string(dim) + " is out of range for rank " + std::to_string(rank) +
           " (allowed " + std::to_string(-std::int64_t(rank)) + ".." + std::to_string(rank - 1) +
           ")";
}
} // namespace

ShapeResult broadcast(std::span<const Shape> shapes)
{
    Shape result;
    for (std::size_t s = 0; s < shapes.size(); ++s) {
        const Shape& shape = shapes[s];
        if (shape.size() > result.size())
            result.insert(result.begin(), shape.size() - result.size(), 1);
        for (std::size_t k = 0; k < shape.size(); ++k) {
            std::int64_t& into = result[result.size() - shape.size() + k];
            const std::int64_t dim = shape[k];
            if (dim == into || dim == 1) continue;
            if (into == 1) {
                into = dim;
                continue;
            }
            const auto fromEnd = std::int64_t(k) - std::int64_t(shape.size());
            return ShapeError{int(s), "cannot broadcast " + toString(shape) + " with the shape " +
                                          toString(result) + " of the arguments before it: dim " +
                                          std::to_string(fromEnd) + " is " + std::to_string(dim) +
                                          " vs " + std::to_string(into)};
        }
    }
    return result;
}

ShapeResult reduce(const Shape& shape, std::span<const std::int64_t> dims, bool keepdim)
{
    std::vector<bool> reduced(shape.size(), dims.empty());
    for (std::int64_t dim : dims) {
        std::size_t d;
        if (!normalizeDim(dim, shape.size(), d))
            return ShapeError{1, dimRangeError(dim, shape.size())};
        if (reduced[d]) return ShapeError{1, "dim " + std::to_string(dim) + " is listed twice"};
        reduced[d] = true;
    }
    Shape result;
    for (std::size_t k = 0; k < shape.size(); ++k) {
        if (!reduced[k])
            result.push_back(shape[k]);
        else if (keepdim)
            result.push_back(1);
    }
    return result;
}

ShapeResult transpose(const Shape& shape, std::int64_t dim0, std::int64_t dim1)
{
    std::size_t a, b;
    if (!normalizeDim(dim0, shape.size(), a))
        return ShapeError{1, dimRangeError(dim0, shape.size())};
    if (!normalizeDim(dim1, shape.size(), b))
        return ShapeError{2, dimRangeError(dim1, shape.size())};
    Shape result = shape;
    std::swap(result[a], result[b]);
    return result;
}

ShapeResult matmul(Shape a, Shape b, bool transA, bool transB)
{
    if (a.empty()) return ShapeError{0, "matmul needs tensors of rank >= 1; a is a scalar"};
    if (b.empty()) return ShapeError{1, "matmul needs tensors of rank >= 1; b is a scalar"};
    if (transA && a.size() >= 2) std::swap(a[a.size() - 1], a[a.size() - 2]);
    if (transB && b.size() >= 2) std::swap(b[b.size() - 1], b[b.size() - 2]);
    const bool vectorA = a.size() == 1;
    const bool vectorB = b.size() == 1;
    if (vectorA) a.insert(a.begin(), 1);
    if (vectorB) b.push_back(1);
    const std::int64_t k = a[a.size() - 1];
    if (k != b[b.size() - 2])
        return ShapeError{-1, "matmul inner dimensions differ: a is " + toString(a) +
                                  " (k = " + std::to_string(k) + "), b is " + toString(b) +
                                  " (k = " + std::to_string(b[b.size() - 2]) + ")"};
    const Shape batches[] = {Shape(a.begin(), a.end() - 2), Shape(b.begin(), b.end() - 2)};
    ShapeResult batch = broadcast(batches);
    if (auto* error = std::get_if<ShapeError>(&batch)) {
        error->message = "matmul batch dims: " + error->message;
        return batch;
    }
    Shape result = std::get<Shape>(batch);
    if (!vectorA) result.push_back(a[a.size() - 2]);
    if (!vectorB) result.push_back(b[b.size() - 1]);
    return result;
}

} // namespace ptowb::shapefn
