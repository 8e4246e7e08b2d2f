#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

// Shape arithmetic shared by the rule evaluator and the generated C++ glue, so that a rule
// means the same thing in the workbench and in a deployed op.
namespace ptowb::shapefn {

using Shape = std::vector<std::int64_t>;

struct ShapeError
{
    int argument = -1; // which argument is at fault, -1 when it is the combination
    std::string message;
};

using ShapeResult = std::variant<Shape, ShapeError>;

// NumPy broadcasting of any number of shapes.
ShapeResult broadcast(std::span<const Shape> shapes);
// Drops (or keeps as 1) the dims listed; an empty list reduces every dim. Negative dims count from
// the end.
ShapeResult reduce(const Shape& shape, std::span<const std::int64_t> dims, bool keepdim);
ShapeResult transpose(const Shape& shape, std::int64_t dim0, std::int64_t dim1);
// torch.matmul's result shape, after transposing the last two dims of a and/or b.
ShapeResult matmul(Shape a, Shape b, bool transA, bool transB);

// Resolves a possibly negative dim against a rank; false when out of range.
bool normalizeDim(std::int64_t dim, std::size_t rank, std::size_t& out);

std::string toString(std::span<const std::int64_t> shape);

} // namespace ptowb::shapefn
