// The indexing ops: gather, index_select, gather_in_ub, scatter, scatter_update and index_put_.
#include "sim/sim_ops.h"

namespace ptowb::sim {

namespace {

// Every index in 0..size-1, or the error "FN: an index is outside 0..size-1WHERE".
void checkIndices(const at::Tensor& indices, std::int64_t size, const std::string& fn,
                  const std::string& where)
{
    if (indices.numel() &&
        (indices.min().item<std::int64_t>() < 0 || indices.max().item<std::int64_t>() >= size))
        throw OpError{fn + ": an index is outside 0.." + std::to_string(size - 1) + where,
                      "sim.index"};
}

} // namespace

at::Tensor gatherOp(SimState& s, const at::Tensor& x, std::int64_t dim, const at::Tensor& index)
{
    const std::int64_t d = normalizedDim(dim, x.dim(), "pypto.gather");
    if (index.dim() != x.dim())
        throw OpError{"pypto.gather: index " + shapeText(index.sizes()) +
                          " must have the rank of input " + shapeText(x.sizes()),
                      "sim.shape"};
    const at::Tensor i = index.to(at::kLong);
    checkIndices(i, x.size(d), "pypto.gather", " of dim " + std::to_string(d));
    at::Tensor r = at::gather(x, d, i);
    s.memoryCost("gather " + shapeText(r.sizes()), r, std::int64_t(r.element_size()));
    return r;
}

at::Tensor indexSelectOp(SimState& s, const at::Tensor& x, std::int64_t dim,
                         const at::Tensor& index)
{
    const std::int64_t d = normalizedDim(dim, x.dim(), "pypto.index_select");
    const at::Tensor i = index.to(at::kLong).reshape({-1});
    checkIndices(i, x.size(d), "pypto.index_select", " of dim " + std::to_string(d));
    at::Tensor r = at::index_select(x, d, i);
    s.memoryCost("index_select " + shapeText(r.sizes()), r, std::int64_t(r.element_size()));
    return r;
}

at::Tensor gatherInUbOp(SimState& s, const at::Tensor& param, const at::Tensor& indices,
                        const at::Tensor& blockTable, std::int64_t blockSize)
{
    const char* name = "pypto.experimental.gather_in_ub";
    if (param.dim() != 2 || indices.dim() != 2 || indices.size(0) != 1 || blockTable.dim() != 2 ||
        blockTable.size(0) != 1)
        throw OpError{std::string(name) + ": param is [tokens, hidden], indices [1, k] and " +
                          "block_table [1, blocks]; got " + shapeText(param.sizes()) + ", " +
                          shapeText(indices.sizes()) + " and " + shapeText(blockTable.sizes()),
                      "sim.shape"};
    for (const at::Tensor* t : {&indices, &blockTable})
        if (!at::isIntegralType(t->scalar_type(), /*includeBool=*/false))
            throw OpError{std::string(name) + ": indices and block_table hold integers, got " +
                              std::string(dtypeName(dtypeOf(*t))),
                          "sim.dtype"};
    if (blockSize <= 0)
        throw OpError{std::string(name) + ": block_size must be positive, got " +
                          std::to_string(blockSize),
                      "sim.shape"};
    const at::Tensor tokens = indices[0].to(at::kLong);
    const at::Tensor logical = tokens.div(blockSize, "floor");
    if (tokens.numel() && (tokens.min().item<std::int64_t>() < 0 ||
                           logical.max().item<std::int64_t>() >= blockTable.size(1)))
        throw OpError{std::string(name) + ": a token index is outside 0.." +
                          std::to_string(blockTable.size(1) * blockSize - 1) +
                          " (the block table's " + std::to_string(blockTable.size(1)) +
                          " blocks of " + std::to_string(blockSize) + ")",
                      "sim.index"};
    const at::Tensor rows = blockTable[0].to(at::kLong).index_select(0, logical) * blockSize +
                            tokens.remainder(blockSize);
    // The device reads the param's memory from the view's first row on: rows past a view of a
    // larger tensor (a [k, hidden] window of the whole cache) are that tensor's rows.
    const std::int64_t held =
        std::int64_t(param.storage().nbytes()) / param.element_size() - param.storage_offset();
    const std::int64_t reachable =
        param.stride(0) > 0 && param.size(1) > 0
            ? (held - (param.size(1) - 1) * param.stride(1) - 1) / param.stride(0) + 1
            : param.size(0);
    if (rows.numel() &&
        (rows.min().item<std::int64_t>() < 0 || rows.max().item<std::int64_t>() >= reachable))
        throw OpError{std::string(name) + ": the block table maps a token to row " +
                          std::to_string(rows.max().item<std::int64_t>()) + ", past the param's " +
                          std::to_string(reachable) + " rows",
                      "sim.index"};
    const at::Tensor memory =
        param.as_strided({reachable, param.size(1)}, param.strides(), param.storage_offset());
    at::Tensor r = memory.index_select(0, rows);
    s.memoryCost("gather_in_ub " + shapeText(r.sizes()), r, std::int64_t(r.element_size()));
    return r;
}

at::Tensor scatterOp(SimState& s, const at::Tensor& x, std::int64_t dim, const at::Tensor& index,
                     const Operand& src, const std::string& reduce)
{
    const std::int64_t d = normalizedDim(dim, x.dim(), "pypto.scatter");
    const at::Tensor i = index.to(at::kLong);
    checkIndices(i, x.size(d), "pypto.scatter", " of dim " + std::to_string(d));
    const at::Tensor values =
        src.tensor ? src.tensor->to(x.scalar_type()) : at::full(i.sizes(), src.number, x.options());
    at::Tensor r = reduce.empty() ? x.scatter(d, i, values)
                                  : x.scatter(d, i, values, reduce == "add" ? "add" : "multiply");
    s.memoryCost("scatter " + shapeText(i.sizes()), i, std::int64_t(x.element_size()));
    return r;
}

at::Tensor scatterUpdateOp(SimState& s, const at::Tensor& x, std::int64_t dim,
                           const at::Tensor& index, const at::Tensor& src)
{
    // scatter_update's API page: a cache [blockNum, blockSize, 1, d] and src [b, s, 1, d], or
    // [blockNum * blockSize, d] and [b * s, d], with index [b, s]: cache row index[i][j] (block
    // index[i][j] / blockSize, slot index[i][j] % blockSize) takes src row i * s + j.
    const std::string fn = "pypto.scatter_update";
    if (x.dim() < 2)
        throw OpError{fn + ": input is rows of its last dim (2 or 4 dims), got " +
                          shapeText(x.sizes()),
                      "sim.shape"};
    if (dim != -2 && dim != x.dim() - 2)
        throw OpError{fn + ": dim must be -2, the rows of input; got " + std::to_string(dim),
                      "sim.shape"};
    if (at::isFloatingType(index.scalar_type()) || index.scalar_type() == at::kBool)
        throw OpError{fn + ": index must hold integers, got " + dtypeText(index), "sim.dtype"};
    const std::int64_t width = x.size(-1);
    const std::int64_t rows = width ? x.numel() / width : 0;
    const at::Tensor i = index.reshape({-1}).to(at::kLong);
    if (src.dim() < 1 || src.size(-1) != width || src.numel() != i.numel() * width)
        throw OpError{fn + ": src must hold one row of " + std::to_string(width) +
                          " per index of " + shapeText(index.sizes()) + ", got " +
                          shapeText(src.sizes()),
                      "sim.shape"};
    if (src.scalar_type() != x.scalar_type())
        throw OpError{fn + ": src must have input's dtype (" + dtypeText(x) + "), got " +
                          dtypeText(src),
                      "sim.dtype"};
    checkIndices(i, rows, fn, ", the rows of input " + shapeText(x.sizes()));
    at::Tensor r = x.clone(at::MemoryFormat::Contiguous).reshape({rows, width});
    r.index_copy_(0, i, src.reshape({i.numel(), width}));
    s.memoryCost("scatter_update " + shapeText(src.sizes()), src, std::int64_t(x.element_size()));
    return r.reshape(x.sizes());
}

at::Tensor indexPutOp(SimState& s, const at::Tensor& x, const std::vector<at::Tensor>& indices,
                      const at::Tensor& values, bool accumulate)
{
    // PyPTO's constraints (index_put_'s API page): 1-D integer indices of one length, one per
    // leading dim of x; values [length, x's remaining dims], x's dtype.
    const std::string fn = "pypto.index_put_";
    if (indices.empty() || std::int64_t(indices.size()) > x.dim())
        throw OpError{fn + ": indices holds 1.." + std::to_string(x.dim()) +
                          " index tensors (one per leading dim of input), got " +
                          std::to_string(indices.size()),
                      "sim.shape"};
    const std::int64_t length = indices[0].dim() == 1 ? indices[0].size(0) : -1;
    // The rows of x flattened over the indexed dims, one linear index per put.
    at::Tensor rows = at::zeros({std::max<std::int64_t>(length, 0)}, at::kLong);
    std::int64_t leading = 1;
    for (std::size_t k = 0; k < indices.size(); ++k) {
        const at::Tensor& i = indices[k];
        if (i.dim() != 1 || i.size(0) != length)
            throw OpError{fn +
                              ": every index tensor is 1-D and of one length (no broadcast), got " +
                              shapeText(i.sizes()) + " for index " + std::to_string(k),
                          "sim.shape"};
        if (at::isFloatingType(i.scalar_type()) || i.scalar_type() == at::kBool)
            throw OpError{fn + ": an index tensor must hold integers, got " + dtypeText(i),
                          "sim.dtype"};
        const at::Tensor l = i.to(at::kLong);
        const std::int64_t size = x.size(std::int64_t(k));
        checkIndices(l, size, fn, " of dim " + std::to_string(k));
        rows = rows * size + l;
        leading *= size;
    }
    std::vector<std::int64_t> expected{length};
    for (std::int64_t d = std::int64_t(indices.size()); d < x.dim(); ++d)
        expected.push_back(x.size(d));
    if (values.sizes().vec() != expected)
        throw OpError{fn + ": values must be " + shapeText(expected) + " (no broadcast), got " +
                          shapeText(values.sizes()),
                      "sim.shape"};
    if (values.scalar_type() != x.scalar_type())
        throw OpError{fn + ": values must have input's dtype", "sim.dtype"};
    std::vector<std::int64_t> flat{leading};
    flat.insert(flat.end(), expected.begin() + 1, expected.end());
    at::Tensor r = x.clone(at::MemoryFormat::Contiguous).reshape(flat);
    if (accumulate)
        r.index_add_(0, rows, values);
    else
        r.index_copy_(0, rows, values);
    r = r.reshape(x.sizes());
    s.memoryCost("index_put_ " + shapeText(values.sizes()), values, std::int64_t(x.element_size()));
    return r;
}

} // namespace ptowb::sim
