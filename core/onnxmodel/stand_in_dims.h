#pragma once

// Output shapes over unknown input dims, for ONNX shape inference with the description's rules,
// which work on sizes. The rules run once per stand-in set, with each unknown input dim (a
// dim_param such as "batch", or no value at all) replaced by a stand-in size: two sets of large
// sizes no rule meets by chance, and one of small sizes, so that a size a comparison with an
// unknown dim chose differs between runs. Merged, an output dim that is the same stand-in's in
// every run is a copy of that input dim and keeps its dim_param; one equal in every run is
// known; any other is a fresh unknown dim; the rank is kept whenever the runs agree on it.
// Constraints are not evaluated on stand-ins: one on an unknown dim waits for its size.
//
// Used by ptowb-cli onnx-infer and by every generated ONNX schema library. Header-only, over
// ONNX's protobuf types and the standard library.
#include <cstdint>
#include <onnx/onnx_pb.h>
#include <optional>
#include <vector>

namespace ptowb_dims {

constexpr int kRuns = 3;

inline std::int64_t standIn(int run, std::size_t slot)
{
    // Sizes of 2 and up in the small run: below the constants rules compare dims with, and not
    // 1, which broadcasts.
    static const std::int64_t kBase[kRuns] = {1000003, 3000017, 2};
    static const std::int64_t kStep[kRuns] = {7919, 104729, 1};
    return kBase[run] + std::int64_t(slot) * kStep[run];
}

class StandIns
{
public:
    // True when a tensor type has a shape some dim of which has no value.
    static bool hasUnknownDim(const onnx::TypeProto* type)
    {
        if (!type || !type->has_tensor_type() || !type->tensor_type().has_shape()) return false;
        for (const auto& d : type->tensor_type().shape().dim())
            if (!d.has_dim_value()) return true;
        return false;
    }

    // The dims of a tensor type with a shape, each unknown one replaced by its stand-in of
    // `run`. Dims are numbered in the order they are first seen, the same in every run.
    std::vector<std::int64_t> dims(int run, const onnx::TypeProto& type)
    {
        std::vector<std::int64_t> out;
        for (const auto& d : type.tensor_type().shape().dim()) {
            if (d.has_dim_value()) {
                out.push_back(d.dim_value());
                continue;
            }
            std::size_t slot = 0;
            while (slot < m_slots.size() && m_slots[slot] != &d)
                ++slot;
            if (slot == m_slots.size()) m_slots.push_back(&d);
            out.push_back(standIn(run, slot));
        }
        return out;
    }

    // One output's shape from its shape in each run (nothing where the rule failed); false when
    // no run gives a shape or the runs disagree on the rank, and the shape stays unknown.
    bool merge(const std::vector<std::optional<std::vector<std::int64_t>>>& runs,
               onnx::TensorShapeProto* out) const
    {
        const std::vector<std::int64_t>* first = nullptr;
        bool all = true;
        for (const auto& r : runs) {
            all = all && r.has_value();
            if (r && !first) first = &*r;
            if (r && first && r->size() != first->size()) return false;
        }
        if (!first) return false;
        out->clear_dim();
        for (std::size_t i = 0; i < first->size(); ++i) {
            bool same = true, copy = true;
            std::optional<std::size_t> slot; // the input dim whose stand-in this is in every run
            for (int run = 0; run < int(runs.size()); ++run) {
                if (!runs[std::size_t(run)]) continue;
                const std::int64_t v = (*runs[std::size_t(run)])[i];
                same = same && v == (*first)[i];
                const std::size_t s = slotOf(run, v);
                copy = copy && s < m_slots.size() && (!slot || *slot == s);
                slot = s;
            }
            auto* dim = out->add_dim();
            if (copy)
                dim->CopyFrom(*m_slots[*slot]);
            else if (same && all)
                dim->set_dim_value((*first)[i]);
        }
        return true;
    }

private:
    std::size_t slotOf(int run, std::int64_t v) const
    {
        for (std::size_t slot = 0; slot < m_slots.size(); ++slot)
            if (standIn(run, slot) == v) return slot;
        return m_slots.size();
    }

    std::vector<const onnx::TensorShapeProto_Dimension*> m_slots;
};

} // namespace ptowb_dims
