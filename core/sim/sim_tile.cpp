// The unified-buffer check of a vector op: what PyPTO keeps in the buffer for one op.
#include "rules/shape_functions.h"
#include "sim/sim_ops.h"

#include <algorithm>

namespace ptowb::sim {

namespace {

// One tile of `t` as the unified buffer holds it: each dim the smaller of the tensor's and the
// tile's (dims aligned to the right of the tiled tensor's, as broadcasting aligns them), the
// last dim padded to the 32-byte block buffers are allocated in.
struct TileBuffer
{
    std::vector<std::int64_t> shape;
    std::int64_t bytes = 0;
};

TileBuffer tileBuffer(const std::vector<std::int64_t>& tile, const at::Tensor& t,
                      std::int64_t tiledRank)
{
    TileBuffer b;
    const std::int64_t shift = tiledRank - t.dim();
    std::int64_t rows = 1;
    for (std::int64_t d = 0; d < t.dim(); ++d) {
        const std::int64_t k = d + shift, size = std::max<std::int64_t>(t.size(d), 1);
        b.shape.push_back(
            k >= 0 && k < std::int64_t(tile.size()) ? std::min(tile[std::size_t(k)], size) : size);
        if (d + 1 < t.dim()) rows *= b.shape.back();
    }
    constexpr std::int64_t kBlock = 32;
    const std::int64_t row = (t.dim() ? b.shape.back() : 1) * std::int64_t(t.element_size());
    b.bytes = rows * ((row + kBlock - 1) / kBlock * kBlock);
    return b;
}

std::string bufferText(const TileBuffer& b, const at::Tensor& t)
{
    return shapefn::toString(b.shape) + " " + dtypeText(t) + " " + std::to_string(b.bytes);
}

} // namespace

void SimState::checkTile(const at::Tensor& tiled, const std::vector<at::Tensor>& operands,
                         const at::Tensor& result, const std::string& fn) const
{
    if (vecTile.empty() || tiled.dim() == 0) return;
    // PyPTO tiles a tensor with the leading tile dims, so a tile may have more dims, never fewer.
    if (std::int64_t(vecTile.size()) < tiled.dim())
        throw OpError{"the vec tile shape " + shapefn::toString(vecTile) + " (set at line " +
                          std::to_string(vecTileLine) + ") has rank " +
                          std::to_string(vecTile.size()) + ", but " + fn + " works on a rank-" +
                          std::to_string(tiled.dim()) + " tensor " + shapeText(tiled.sizes()) +
                          "; PyPTO needs a tile dim for every tensor dim",
                      "sim.tile"};
    if (!m_platform) return;
    const TileBuffer out = tileBuffer(vecTile, result, tiled.dim());
    std::int64_t bytes = 0;
    bool inPlace = false;
    std::string inputs;
    for (std::size_t k = 0; k < operands.size(); ++k) {
        const at::Tensor& t = operands[k];
        if (std::any_of(operands.begin(), operands.begin() + std::ptrdiff_t(k),
                        [&](const at::Tensor& seen) { return seen.is_same(t); }))
            continue; // `x * x` reads one buffer
        const TileBuffer in = tileBuffer(vecTile, t, tiled.dim());
        bytes += in.bytes;
        inPlace = inPlace || (in.bytes == out.bytes && t.element_size() == result.element_size());
        inputs += (inputs.empty() ? "" : " + ") + bufferText(in, t);
    }
    if (!inPlace) bytes += out.bytes;
    if (bytes <= m_platform->unifiedBufferBytes) return;
    throw OpError{"the vec tile shape " + shapefn::toString(vecTile) + " needs " +
                      std::to_string(bytes) + " bytes of unified buffer for " + fn +
                      " (tiles: " + inputs +
                      (inPlace ? ", the result in place" : ", result " + bufferText(out, result)) +
                      "), more than the " + std::to_string(m_platform->unifiedBufferBytes) +
                      " bytes of " + m_platform->name,
                  "sim.tile"};
}

} // namespace ptowb::sim
