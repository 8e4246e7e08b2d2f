#pragma once

// Output rules found from recorded calls: for each output, the rule of op.json's rule language
// (section 4 of the design) that gives its shape / dtype from the inputs' shapes and dtypes and
// the int parameters in every recorded call — the same shape as an input, a dim of one, a
// reduction, a matmul's [a.shape[0], b.shape[1]], a concatenation's sum. Standard C++ only.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ptowb::importer {

struct RecordedTensor
{
    std::string name;
    std::vector<std::int64_t> shape;
    std::string dtype;
};

// What one call gave the kernel: its input tensors (in the op's order) and int parameters.
struct RecordedCall
{
    std::vector<RecordedTensor> inputs;
    std::map<std::string, std::int64_t> ints;
};

// A rule that yields `shapes[k]` for every call k, or nullopt when none of the forms above does
// (the ranks differ between calls, a dim follows nothing recorded). Prefers the whole shape of an
// input, then per dim: the same dim of an input, another dim, an int parameter, a sum of two dims,
// a constant.
std::optional<std::string> inferShapeRule(const std::vector<RecordedCall>& calls,
                                          const std::vector<std::vector<std::int64_t>>& shapes);

// "x.dtype" when an input always has the output's dtype, the dtype's name when it is always the
// same, else nullopt.
std::optional<std::string> inferDtypeRule(const std::vector<RecordedCall>& calls,
                                          const std::vector<std::string>& dtypes);

// A rule over the inputs' dims that equals `values[k]` in every call ("x.shape[1]"), for a
// kernel's int argument that follows the shapes; nullopt when none does.
std::optional<std::string> inferDimRule(const std::vector<RecordedCall>& calls,
                                        const std::vector<std::int64_t>& values);

} // namespace ptowb::importer
