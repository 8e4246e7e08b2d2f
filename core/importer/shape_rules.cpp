#include "importer/shape_rules.h"

#include <functional>

namespace ptowb::importer {

namespace {

using Dim = std::function<std::optional<std::int64_t>(const RecordedCall&)>;

struct Candidate
{
    std::string rule;
    Dim value;
};

bool matchesEveryCall(const std::vector<RecordedCall>& calls, const Dim& value,
                      const std::vector<std::int64_t>& wanted)
{
    for (std::size_t k = 0; k < calls.size(); ++k) {
        const auto v = value(calls[k]);
        if (!v || *v != wanted[k]) return false;
    }
    return true;
}

// Dims of inputs, best first for output dim `position`: the same position of each input (counted
// from the end, so a broadcast or a reduction lines up), then every other dim.
std::vector<Candidate> dimCandidates(const RecordedCall& first, std::size_t position,
                                     std::size_t rank)
{
    std::vector<Candidate> same, other;
    for (std::size_t i = 0; i < first.inputs.size(); ++i) {
        const auto& input = first.inputs[i];
        const auto inputRank = std::int64_t(input.shape.size());
        for (std::int64_t d = 0; d < inputRank; ++d) {
            Candidate c{input.name + ".shape[" + std::to_string(d) + "]",
                        [i, d](const RecordedCall& call) -> std::optional<std::int64_t> {
                            if (i >= call.inputs.size() ||
                                d >= std::int64_t(call.inputs[i].shape.size()))
                                return std::nullopt;
                            return call.inputs[i].shape[std::size_t(d)];
                        }};
            const bool aligned = inputRank - d == std::int64_t(rank) - std::int64_t(position);
            (aligned ? same : other).push_back(std::move(c));
        }
    }
    same.insert(same.end(), other.begin(), other.end());
    return same;
}

std::optional<std::string> dimRule(const std::vector<RecordedCall>& calls,
                                   const std::vector<std::int64_t>& wanted, std::size_t position,
                                   std::size_t rank, bool allowConstant)
{
    const auto dims = dimCandidates(calls.front(), position, rank);
    for (const auto& c : dims)
        if (matchesEveryCall(calls, c.value, wanted)) return c.rule;
    for (const auto& [name, value] : calls.front().ints) {
        Dim v = [name = name](const RecordedCall& call) -> std::optional<std::int64_t> {
            auto it = call.ints.find(name);
            if (it == call.ints.end()) return std::nullopt;
            return it->second;
        };
        if (matchesEveryCall(calls, v, wanted)) return name;
    }
    for (std::size_t a = 0; a < dims.size(); ++a)
        for (std::size_t b = a; b < dims.size(); ++b) {
            Dim sum = [&, a, b](const RecordedCall& call) -> std::optional<std::int64_t> {
                auto x = dims[a].value(call), y = dims[b].value(call);
                if (!x || !y) return std::nullopt;
                return *x + *y;
            };
            if (matchesEveryCall(calls, sum, wanted)) return dims[a].rule + " + " + dims[b].rule;
        }
    bool constant = allowConstant;
    for (auto v : wanted)
        constant = constant && v == wanted.front();
    if (constant) return std::to_string(wanted.front());
    return std::nullopt;
}

} // namespace

std::optional<std::string> inferShapeRule(const std::vector<RecordedCall>& calls,
                                          const std::vector<std::vector<std::int64_t>>& shapes)
{
    if (calls.empty() || calls.size() != shapes.size()) return std::nullopt;
    // An input's shape holds whatever the ranks (one call 3-D, another 4-D).
    for (std::size_t i = 0; i < calls.front().inputs.size(); ++i) {
        bool same = true;
        for (std::size_t k = 0; k < calls.size() && same; ++k)
            same = i < calls[k].inputs.size() && calls[k].inputs[i].shape == shapes[k];
        if (same) return calls.front().inputs[i].name + ".shape";
    }
    const std::size_t rank = shapes.front().size();
    for (const auto& s : shapes)
        if (s.size() != rank) return std::nullopt;
    std::string rule = "[";
    for (std::size_t d = 0; d < rank; ++d) {
        std::vector<std::int64_t> wanted;
        for (const auto& s : shapes)
            wanted.push_back(s[d]);
        auto dim = dimRule(calls, wanted, d, rank, true);
        if (!dim) return std::nullopt;
        rule += (d ? ", " : "") + *dim;
    }
    return rule + "]";
}

std::optional<std::string> inferDtypeRule(const std::vector<RecordedCall>& calls,
                                          const std::vector<std::string>& dtypes)
{
    if (calls.empty() || calls.size() != dtypes.size()) return std::nullopt;
    for (std::size_t i = 0; i < calls.front().inputs.size(); ++i) {
        bool same = true;
        for (std::size_t k = 0; k < calls.size() && same; ++k)
            same = i < calls[k].inputs.size() && calls[k].inputs[i].dtype == dtypes[k];
        if (same) return calls.front().inputs[i].name + ".dtype";
    }
    for (const auto& d : dtypes)
        if (d != dtypes.front()) return std::nullopt;
    return dtypes.front();
}

std::optional<std::string> inferDimRule(const std::vector<RecordedCall>& calls,
                                        const std::vector<std::int64_t>& values)
{
    if (calls.empty() || calls.size() != values.size()) return std::nullopt;
    for (const auto& c : dimCandidates(calls.front(), 0, 0))
        if (matchesEveryCall(calls, c.value, values)) return c.rule;
    return std::nullopt;
}

} // namespace ptowb::importer
