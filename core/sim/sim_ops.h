#pragma once

// The simulator's tensor operations: what each pypto op computes on the CPU, with the device's
// numerics (DESIGN §5) — every op computes in float32 and rounds its result to the operand
// dtype, reductions follow the vec tile order, matmul accumulates in float32. The `pypto`
// module of the kernel worker calls these; they know nothing of Python. Includes libtorch:
// only for core .cpp files.
#include "cost/cost_model.h"
#include "types/dtype.h"

#include <optional>
#include <string>
#include <torch/torch.h>
#include <vector>

namespace ptowb::sim {

// An op the kernel called wrongly or that cannot be simulated; the worker reports it at the
// kernel line that called the op.
struct OpError
{
    std::string message;
    std::string code = "sim.error";
};

// The state of one kernel run that ops read and write: tile shapes, the platform's limits and
// the cost estimate. `line` is the kernel line of the op being executed.
class SimState
{
public:
    explicit SimState(std::optional<cost::Platform> platform = std::nullopt);

    int line = 0;
    std::vector<std::int64_t> vecTile;
    int vecTileLine = 0;
    cost::CostReport cost;

    const cost::Platform* platform() const { return m_platform ? &*m_platform : nullptr; }
    // A vec tile needs a dim for every dim of `tiled`, the tensor it cuts (an elementwise op's
    // result, a reduction's input). What one vector op keeps in the unified buffer must fit
    // in it, counted as PyPTO's scheduler counts an op: one tile of each distinct tensor
    // operand and one of the result, each at its own dtype's size with the last dim padded
    // to the 32-byte block; operands take the tile of the dims they share with `tiled`. The
    // result takes no buffer of its own when an operand's tile has its size and element
    // width (PyPTO merges the two when that operand is read no more; an eager run cannot see
    // later reads, so the check allows it, never stricter than the device).
    void checkTile(const at::Tensor& tiled, const std::vector<at::Tensor>& operands,
                   const at::Tensor& result, const std::string& fn) const;
    // How many vec tiles cut a tensor of these sizes (the leading tile dims, as PyPTO tiles
    // it): PyPTO issues one task per tile, and its cycles follow the task count (1 without a
    // vec tile shape).
    std::int64_t vecTiles(at::IntArrayRef sizes) const;
    void vectorCost(const std::string& what, const at::Tensor& t, int passes = 1);
    // A reduction of `x` over `dims`: over more than two tiles of them PyPTO chains partial
    // reductions as dependent tasks, and such a loop iteration runs alone, not beside the others.
    void reductionCost(const std::string& what, const at::Tensor& x,
                       const std::vector<std::int64_t>& dims, int passes = 1);
    void cubeCost(const std::string& what, std::int64_t m, std::int64_t n, std::int64_t k);
    // Moving `t`'s bytes (its elements at `itemSize` bytes each), tile by tile.
    void memoryCost(const std::string& what, const at::Tensor& t, std::int64_t itemSize);
    // The kernel's tensor arguments, in global memory: an op that reads one directly (not a
    // view of it, whose load the view pays) copies it in tile by tile, as PyPTO does.
    void addGlobalTensor(const at::Tensor& t) { m_globals.push_back(t.unsafeGetTensorImpl()); }
    void readOperands(const std::vector<at::Tensor>& operands);
    // A pypto.loop's iterations, for the elapsed time (cost::ElapsedTime).
    void beginLoop() { cost.elapsed.beginLoop(); }
    void nextIteration() { cost.elapsed.nextIteration(); }
    void endLoop() { cost.elapsed.endLoop(m_platform ? m_platform->parallelIterations : 1); }

private:
    std::optional<cost::Platform> m_platform;
    std::optional<cost::CostModel> m_model;
    std::vector<const void*> m_globals;
};

std::string shapeText(at::IntArrayRef sizes);
std::string dtypeText(const at::Tensor& t);
DType dtypeOf(const at::Tensor& t);
// Computed in float32 (for fp16/bf16), rounded to the operand dtype once per op.
at::Tensor widened(const at::Tensor& t);
at::Tensor rounded(const at::Tensor& result, at::ScalarType dtype);

// A scalar operand of a binary op: a Python number takes the tensor's dtype, as PyPTO's
// Element(input.dtype, value) does.
struct Operand
{
    std::optional<at::Tensor> tensor;
    double number = 0;
    bool isInt = false;
};

at::Tensor unaryOp(SimState& s, const std::string& name, const at::Tensor& x);
at::Tensor roundDecimals(SimState& s, const at::Tensor& x, std::int64_t decimals);
at::Tensor binaryOp(SimState& s, const std::string& name, const Operand& a, const Operand& b);
at::Tensor compareOp(SimState& s, const std::string& name, const Operand& a, const Operand& b);
at::Tensor whereOp(SimState& s, const at::Tensor& condition, const Operand& a, const Operand& b);
at::Tensor clipOp(SimState& s, const at::Tensor& x, const std::optional<Operand>& lo,
                  const std::optional<Operand>& hi);

// sum / amax / amin / prod over `dims` (all when empty) in vec tile order; argmax / argmin give
// int64 (the device's int32 in PyPTO's docs is not modelled: indices fit either).
at::Tensor reduceOp(SimState& s, const std::string& name, const at::Tensor& x,
                    std::vector<std::int64_t> dims, bool keepdim);
at::Tensor argReduceOp(SimState& s, const std::string& name, const at::Tensor& x,
                       std::optional<std::int64_t> dim, bool keepdim);
at::Tensor softmaxOp(SimState& s, const at::Tensor& x, std::int64_t dim);

struct MatmulOptions
{
    bool aTrans = false;
    bool bTrans = false;
    std::optional<at::Tensor> bias;    // extend_params["bias"], added in fp32 before the cast
    bool relu = false;                 // extend_params["relu_type"] is ReLuType.RELU
    std::optional<double> scale;       // extend_params["scale"], of 1 + 8 + 10 bits
    std::optional<at::Tensor> cMatrix; // accumulate into (c_matrix)
};
at::Tensor matmulOp(SimState& s, const at::Tensor& a, const at::Tensor& b, DType outDType,
                    const MatmulOptions& options);
at::Tensor castOp(SimState& s, const at::Tensor& x, DType dtype, const std::string& mode);

// Views share storage with their tensor, so writes through them reach it.
at::Tensor viewOp(SimState& s, const at::Tensor& x, const std::vector<std::int64_t>& shape,
                  const std::vector<std::int64_t>& offsets,
                  const std::optional<std::vector<std::int64_t>>& validShape);
void assembleOp(SimState& s, const at::Tensor& value, const std::vector<std::int64_t>& offsets,
                at::Tensor& out);
void fillRegion(at::Tensor& region, double value);
at::Tensor reshapeOp(SimState& s, const at::Tensor& x, std::vector<std::int64_t> shape);
at::Tensor permuteOp(const at::Tensor& x, const std::vector<std::int64_t>& dims);
at::Tensor transposeOp(const at::Tensor& x, std::int64_t d0, std::int64_t d1);
at::Tensor concatOp(SimState& s, const std::vector<at::Tensor>& tensors, std::int64_t dim);
at::Tensor expandOp(SimState& s, const at::Tensor& x, const std::vector<std::int64_t>& shape);
at::Tensor fullOp(SimState& s, const std::vector<std::int64_t>& shape, double value, DType dtype);
at::Tensor arangeOp(SimState& s, double start, double end, double step, DType dtype);
at::Tensor gatherOp(SimState& s, const at::Tensor& x, std::int64_t dim, const at::Tensor& index);
// PyPTO's experimental gather_in_ub: PagedAttention's gather of token rows through a page table.
at::Tensor gatherInUbOp(SimState& s, const at::Tensor& param, const at::Tensor& indices,
                        const at::Tensor& blockTable, std::int64_t blockSize);
at::Tensor indexSelectOp(SimState& s, const at::Tensor& x, std::int64_t dim,
                         const at::Tensor& index);
at::Tensor scatterOp(SimState& s, const at::Tensor& x, std::int64_t dim, const at::Tensor& index,
                     const Operand& src, const std::string& reduce);
// x with values put at the rows the 1-D index tensors give (torch's index_put), a new tensor.
at::Tensor indexPutOp(SimState& s, const at::Tensor& x, const std::vector<at::Tensor>& indices,
                      const at::Tensor& values, bool accumulate);
// PyPTO's scatter_update, a paged cache's update (not torch's scatter): x's rows (every dim but
// the last) take src's rows in order, row k of src going to row index.flatten()[k]. A new tensor.
at::Tensor scatterUpdateOp(SimState& s, const at::Tensor& x, std::int64_t dim,
                           const at::Tensor& index, const at::Tensor& src);
std::pair<at::Tensor, at::Tensor> topkOp(SimState& s, const at::Tensor& x, std::int64_t k,
                                         std::int64_t dim, bool largest);
std::pair<at::Tensor, at::Tensor> sortOp(SimState& s, const at::Tensor& x, std::int64_t dim,
                                         bool descending);
at::Tensor padOp(SimState& s, const at::Tensor& x, const std::vector<std::int64_t>& pad,
                 double value);
at::Tensor oneHotOp(SimState& s, const at::Tensor& x, std::int64_t classes);

std::int64_t normalizedDim(std::int64_t d, std::int64_t rank, const std::string& fn);

} // namespace ptowb::sim
