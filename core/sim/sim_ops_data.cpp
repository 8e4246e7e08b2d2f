// Reductions, matmul, casts and data movement of the simulator.
#include "rules/shape_functions.h"
#include "sim/sim_kernels.h"
#include "sim/sim_ops.h"
#include "torchscript/torchscript.h"

#include <algorithm>
#include <cstring>

namespace ptowb::sim {

namespace {

// One tile's partial result, and how two partials combine: sums and products are rounded to
// the dtype at each step, as the device's vector unit does.
at::Tensor partialOf(ReduceKernel kernel, const at::Tensor& w, std::int64_t dim)
{
    switch (kernel) {
    case ReduceKernel::amax:
        return std::get<0>(w.max(dim, true));
    case ReduceKernel::amin:
        return std::get<0>(w.min(dim, true));
    case ReduceKernel::prod:
        return w.prod(dim, true);
    case ReduceKernel::sum:
        return w.sum(dim, true);
    }
    __builtin_unreachable(); // every kernel returns above
}

at::Tensor combined(ReduceKernel kernel, const at::Tensor& acc, const at::Tensor& p)
{
    switch (kernel) {
    case ReduceKernel::amax:
        return at::maximum(acc, p);
    case ReduceKernel::amin:
        return at::minimum(acc, p);
    case ReduceKernel::prod:
        return rounded(widened(acc) * widened(p), acc.scalar_type());
    case ReduceKernel::sum:
        return rounded(widened(acc) + widened(p), acc.scalar_type());
    }
    __builtin_unreachable(); // every kernel returns above
}

at::Tensor reduceDim(const SimState& s, ReduceKernel kernel, const at::Tensor& x, std::int64_t dim)
{
    const std::int64_t size = x.size(dim);
    const std::int64_t tile = s.vecTile.size() >= std::size_t(x.dim())
                                  ? std::max<std::int64_t>(1, s.vecTile[std::size_t(dim)])
                                  : size;
    auto partial = [&](const at::Tensor& chunk) {
        return rounded(partialOf(kernel, widened(chunk), dim), x.scalar_type());
    };
    if (size == 0) return partial(x);
    at::Tensor acc;
    for (std::int64_t start = 0; start < size; start += tile) {
        const at::Tensor p = partial(x.narrow(dim, start, std::min(tile, size - start)));
        acc = acc.defined() ? combined(kernel, acc, p) : p;
    }
    return acc;
}

void checkFits(const at::Tensor& x, const std::vector<std::int64_t>& shape,
               const std::vector<std::int64_t>& offsets, const std::string& fn, const char* what)
{
    if (shape.size() != std::size_t(x.dim()) || offsets.size() != std::size_t(x.dim()))
        throw OpError{fn + ": shape " + shapefn::toString(shape) + " and offsets " +
                          shapefn::toString(offsets) + " must both have the tensor's rank " +
                          std::to_string(x.dim()) + " (tensor " + shapeText(x.sizes()) + ")",
                      "sim.shape"};
    for (std::int64_t d = 0; d < x.dim(); ++d) {
        const auto o = offsets[std::size_t(d)], n = shape[std::size_t(d)];
        if (o < 0 || n < 0 || o + n > x.size(d))
            throw OpError{fn + ": " + what + " of shape " + shapefn::toString(shape) +
                              " at offsets " + shapefn::toString(offsets) +
                              " does not fit in a tensor of shape " + shapeText(x.sizes()) +
                              " (dim " + std::to_string(d) + ": " + std::to_string(o) + " + " +
                              std::to_string(n) + " > " + std::to_string(x.size(d)) + ")",
                          "sim.view"};
    }
}

at::Tensor window(const at::Tensor& x, const std::vector<std::int64_t>& shape,
                  const std::vector<std::int64_t>& offsets)
{
    at::Tensor v = x;
    for (std::int64_t d = 0; d < x.dim(); ++d)
        v = v.narrow(d, offsets[std::size_t(d)], shape[std::size_t(d)]);
    return v;
}

} // namespace

at::Tensor reduceOp(SimState& s, const std::string& name, const at::Tensor& x,
                    std::vector<std::int64_t> dims, bool keepdim)
{
    const ReduceKernel kernel = reduceKernel(name);
    const std::string fn = "pypto." + name;
    if (dims.empty())
        for (std::int64_t d = 0; d < x.dim(); ++d)
            dims.push_back(d);
    for (auto& d : dims)
        d = normalizedDim(d, x.dim(), fn);
    std::sort(dims.begin(), dims.end());
    dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
    std::vector<std::int64_t> kept = x.sizes().vec(); // the result's tile keeps reduced dims as 1
    for (auto d : dims)
        kept[std::size_t(d)] = 1;
    s.checkTile(x, {x}, at::empty(kept, x.options().device(at::kMeta)), fn);
    s.reductionCost(fn, x, dims);
    s.readOperands({x});
    if (x.dim() == 0) return x.clone();
    at::Tensor acc = x;
    for (auto it = dims.rbegin(); it != dims.rend(); ++it)
        acc = reduceDim(s, kernel, acc, *it);
    if (!keepdim)
        for (auto it = dims.rbegin(); it != dims.rend(); ++it)
            acc = acc.squeeze(*it);
    return acc;
}

at::Tensor argReduceOp(SimState& s, const std::string& name, const at::Tensor& x,
                       std::optional<std::int64_t> dim, bool keepdim)
{
    const ArgReduceKernel kernel = argReduceKernel(name);
    const std::string fn = "pypto." + name;
    const at::Tensor w = widened(x);
    c10::optional<std::int64_t> d; // none: over every element, and keepdim does not apply
    if (dim) d = normalizedDim(*dim, x.dim(), fn);
    std::vector<std::int64_t> reduced;
    for (std::int64_t k = 0; k < x.dim(); ++k)
        if (!d || *d == k) reduced.push_back(k);
    s.reductionCost(fn, x, reduced);
    switch (kernel) {
    case ArgReduceKernel::argmax:
        return w.argmax(d, d.has_value() && keepdim);
    case ArgReduceKernel::argmin:
        return w.argmin(d, d.has_value() && keepdim);
    }
    __builtin_unreachable(); // every kernel returns above
}

at::Tensor softmaxOp(SimState& s, const at::Tensor& x, std::int64_t dim)
{
    const std::int64_t d = normalizedDim(dim, x.dim(), "pypto.softmax");
    s.checkTile(x, {x}, x, "pypto.softmax");
    s.reductionCost("pypto.softmax", x, {d}, 4);
    s.readOperands({x});
    return rounded(at::softmax(widened(x), d), x.scalar_type());
}

namespace {

// A float as the FixPipe reads it: sign, exponent and the top 10 mantissa bits of its fp32.
double fixpipeScale(double scale)
{
    std::uint32_t bits = 0;
    const float single = float(scale);
    std::memcpy(&bits, &single, sizeof bits);
    bits &= 0xFFFFE000u;
    float masked = 0;
    std::memcpy(&masked, &bits, sizeof masked);
    return masked;
}

// The exact integer product of integer matrices. Products of 8- or 16-bit integers (signed or
// not: below 2^32) and their sums over k below 2^20 stay below 2^53, so a double matmul is exact,
// whatever order it adds in; wider operands take int64. Double goes through BLAS: in PyPI's
// torch 2.x an int8 [8, 1536] x [1536, 24576] takes 0.24 s against 3.6 s in int64 (a quantized
// model's import ran out of time in these), in Debian's torch 1.13 0.70 s against 0.47 s.
at::Tensor exactIntegerProduct(const at::Tensor& a, const at::Tensor& b)
{
    const bool narrow = a.element_size() <= 2 && b.element_size() <= 2 && a.size(-1) < (1 << 20);
    if (!narrow) return at::matmul(a.to(at::kLong), b.to(at::kLong));
    return at::matmul(a.to(at::kDouble), b.to(at::kDouble)).to(at::kLong);
}

} // namespace

at::Tensor matmulOp(SimState& s, const at::Tensor& a, const at::Tensor& b, DType outDType,
                    const MatmulOptions& o)
{
    if (a.dim() < 2 || b.dim() < 2)
        throw OpError{"pypto.matmul needs matrices (rank 2, 3 or 4), got " + shapeText(a.sizes()) +
                          " and " + shapeText(b.sizes()),
                      "sim.shape"};
    const at::Tensor ma = o.aTrans ? a.transpose(-1, -2) : a;
    const at::Tensor mb = o.bTrans ? b.transpose(-1, -2) : b;
    if (ma.size(-1) != mb.size(-2))
        throw OpError{"pypto.matmul inner dimensions differ: input is " + shapeText(a.sizes()) +
                          (o.aTrans ? " (transposed)" : "") + ", mat2 is " + shapeText(b.sizes()) +
                          (o.bTrans ? " (transposed)" : "") + " (k = " +
                          std::to_string(ma.size(-1)) + " vs " + std::to_string(mb.size(-2)) + ")",
                      "sim.shape"};
    if (a.dim() != b.dim() && b.dim() != 2)
        throw OpError{"pypto.matmul needs operands of the same rank (or a 2-D mat2), got " +
                          shapeText(a.sizes()) + " and " + shapeText(b.sizes()),
                      "sim.shape"};
    // Integer operands (int8 quantized matmul) accumulate exactly in int32 on the cube unit.
    const bool integer = !a.is_floating_point() && !b.is_floating_point();
    at::Tensor r =
        integer ? exactIntegerProduct(ma, mb) : at::matmul(ma.to(at::kFloat), mb.to(at::kFloat));
    // The bias joins the accumulation; the FixPipe on the way out applies the ReLU and the
    // (de)quantization scale, of which it takes the sign, the exponent and 10 mantissa bits (the
    // API page; PyPTO's quant test masks its golden scale with 0xFFFFE000 the same way).
    if (o.bias) r = r.to(at::kFloat) + widened(*o.bias).to(at::kFloat);
    if (o.relu) r = at::relu(r);
    if (o.scale) r = r.to(at::kFloat) * fixpipeScale(*o.scale);
    if (o.cMatrix) r = r.to(at::kFloat) + widened(*o.cMatrix).to(at::kFloat);
    s.cubeCost("pypto.matmul " + shapeText(ma.sizes()) + " x " + shapeText(mb.sizes()), ma.size(-2),
               mb.size(-1), ma.size(-1));
    s.readOperands({a, b});
    return r.to(torchscript::toTorch(outDType));
}

at::Tensor castOp(SimState& s, const at::Tensor& x, DType dtype, const std::string& mode)
{
    const at::ScalarType to = torchscript::toTorch(dtype);
    s.vectorCost("pypto.cast", x);
    if (x.is_floating_point() && !at::isFloatingType(to)) {
        // Float to integer: the rounding mode decides (CAST_RINT by default, as PyPTO's cast).
        const at::Tensor w = widened(x).to(at::kDouble);
        at::Tensor r;
        if (mode == "floor")
            r = w.floor();
        else if (mode == "ceil")
            r = w.ceil();
        else if (mode == "trunc")
            r = w.trunc();
        else if (mode == "round")
            r = at::where(w >= 0, (w + 0.5).floor(), (w - 0.5).ceil());
        else
            r = w.round();
        return r.to(to);
    }
    return widened(x).to(to);
}

at::Tensor viewOp(SimState& s, const at::Tensor& x, const std::vector<std::int64_t>& shape,
                  const std::vector<std::int64_t>& offsets,
                  const std::optional<std::vector<std::int64_t>>& validShape)
{
    std::vector<std::int64_t> real = shape;
    if (validShape) {
        if (validShape->size() != shape.size())
            throw OpError{"pypto.view: valid_shape " + shapefn::toString(*validShape) +
                              " must have the rank of shape " + shapefn::toString(shape),
                          "sim.shape"};
        // A tile at a boundary may reach past the tensor; only its valid part holds data.
        for (std::size_t d = 0; d < shape.size(); ++d) {
            if ((*validShape)[d] > shape[d])
                throw OpError{"pypto.view: valid_shape " + shapefn::toString(*validShape) +
                                  " is larger than shape " + shapefn::toString(shape) + " in dim " +
                                  std::to_string(d),
                              "sim.shape"};
            real[d] = (*validShape)[d];
        }
    }
    checkFits(x, real, offsets, "pypto.view", "a view");
    at::Tensor v = window(x, real, offsets);
    s.memoryCost("load view " + shapeText(v.sizes()), v, std::int64_t(v.element_size()));
    return v;
}

void assembleOp(SimState& s, const at::Tensor& value, const std::vector<std::int64_t>& offsets,
                at::Tensor& out)
{
    at::Tensor v = value;
    if (v.dim() != out.dim())
        throw OpError{"pypto.assemble: a " + shapeText(value.sizes()) +
                          " tensor cannot be written into a rank-" + std::to_string(out.dim()) +
                          " tensor " + shapeText(out.sizes()),
                      "sim.shape"};
    checkFits(out, v.sizes().vec(), offsets, "pypto.assemble", "a tensor");
    at::Tensor target = window(out, v.sizes().vec(), offsets);
    target.copy_(rounded(v, out.scalar_type()));
    s.memoryCost("store " + shapeText(v.sizes()), v, std::int64_t(out.element_size()));
}

void fillRegion(at::Tensor& region, double value)
{
    region.fill_(value);
}

at::Tensor reshapeOp(SimState&, const at::Tensor& x, std::vector<std::int64_t> shape)
{
    std::int64_t known = 1;
    int infer = -1;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        if (shape[d] == -1) {
            if (infer >= 0)
                throw OpError{"pypto.reshape: only one dim can be -1 in " +
                                  shapefn::toString(shape),
                              "sim.shape"};
            infer = int(d);
        } else if (shape[d] < 0)
            throw OpError{"pypto.reshape: dims must be >= 0 or -1, got " + shapefn::toString(shape),
                          "sim.shape"};
        else
            known *= shape[d];
    }
    if (infer >= 0 && known > 0) shape[std::size_t(infer)] = x.numel() / known;
    std::int64_t total = 1;
    for (auto d : shape)
        total *= d;
    if (total != x.numel())
        throw OpError{"pypto.reshape: a " + shapeText(x.sizes()) + " tensor (" +
                          std::to_string(x.numel()) + " elements) cannot take the shape " +
                          shapefn::toString(shape),
                      "sim.shape"};
    return x.reshape(shape);
}

at::Tensor permuteOp(const at::Tensor& x, const std::vector<std::int64_t>& dims)
{
    if (std::int64_t(dims.size()) != x.dim())
        throw OpError{"pypto.permute: " + shapefn::toString(dims) +
                          " must name every dim of the rank-" + std::to_string(x.dim()) + " tensor",
                      "sim.shape"};
    std::vector<std::int64_t> order;
    for (auto d : dims)
        order.push_back(normalizedDim(d, x.dim(), "pypto.permute"));
    auto sorted = order;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
        throw OpError{"pypto.permute: " + shapefn::toString(dims) + " repeats a dim", "sim.shape"};
    return x.permute(order).contiguous();
}

at::Tensor transposeOp(const at::Tensor& x, std::int64_t d0, std::int64_t d1)
{
    return x
        .transpose(normalizedDim(d0, x.dim(), "pypto.transpose"),
                   normalizedDim(d1, x.dim(), "pypto.transpose"))
        .contiguous();
}

at::Tensor concatOp(SimState& s, const std::vector<at::Tensor>& tensors, std::int64_t dim)
{
    if (tensors.empty()) throw OpError{"pypto.concat needs at least one tensor", "sim.shape"};
    const std::int64_t d = normalizedDim(dim, tensors[0].dim(), "pypto.concat");
    for (const auto& t : tensors) {
        bool fits = t.dim() == tensors[0].dim() && t.scalar_type() == tensors[0].scalar_type();
        for (std::int64_t k = 0; fits && k < t.dim(); ++k)
            fits = k == d || t.size(k) == tensors[0].size(k);
        if (!fits)
            throw OpError{"pypto.concat: " + shapeText(t.sizes()) + " " + dtypeText(t) +
                              " does not match " + shapeText(tensors[0].sizes()) + " " +
                              dtypeText(tensors[0]) + " outside dim " + std::to_string(d),
                          "sim.shape"};
    }
    at::Tensor r = at::cat(tensors, d);
    s.memoryCost("concat " + shapeText(r.sizes()), r, std::int64_t(r.element_size()));
    return r;
}

at::Tensor expandOp(SimState& s, const at::Tensor& x, const std::vector<std::int64_t>& shape)
{
    if (!std::holds_alternative<shapefn::Shape>(
            shapefn::broadcast(std::vector<shapefn::Shape>{x.sizes().vec(), shape})) ||
        shape.size() < std::size_t(x.dim()))
        throw OpError{"pypto.expand_clone: a " + shapeText(x.sizes()) +
                          " tensor cannot expand to " + shapefn::toString(shape),
                      "sim.shape"};
    at::Tensor r = x.expand(shape).contiguous();
    s.vectorCost("pypto.expand_clone", r);
    return r;
}

at::Tensor fullOp(SimState& s, const std::vector<std::int64_t>& shape, double value, DType dtype)
{
    for (auto d : shape)
        if (d < 0)
            throw OpError{"pypto.full: negative size in " + shapefn::toString(shape), "sim.shape"};
    at::Tensor r = at::full(shape, value, at::TensorOptions().dtype(torchscript::toTorch(dtype)));
    s.vectorCost("pypto.full", r);
    return r;
}

at::Tensor arangeOp(SimState& s, double start, double end, double step, DType dtype)
{
    if (step == 0) throw OpError{"pypto.arange: step must not be 0", "sim.shape"};
    at::Tensor r = at::arange(start, end, step, at::TensorOptions().dtype(at::kDouble))
                       .to(torchscript::toTorch(dtype));
    s.vectorCost("pypto.arange", r);
    return r;
}

std::pair<at::Tensor, at::Tensor> topkOp(SimState& s, const at::Tensor& x, std::int64_t k,
                                         std::int64_t dim, bool largest)
{
    const std::int64_t d = normalizedDim(dim, x.dim(), "pypto.topk");
    if (k < 0 || k > x.size(d))
        throw OpError{"pypto.topk: k = " + std::to_string(k) + " is outside 0.." +
                          std::to_string(x.size(d)),
                      "sim.shape"};
    s.vectorCost("pypto.topk", x, 2);
    auto [values, indices] = widened(x).topk(k, d, largest, true);
    return {rounded(values, x.scalar_type()), indices};
}

std::pair<at::Tensor, at::Tensor> sortOp(SimState& s, const at::Tensor& x, std::int64_t dim,
                                         bool descending)
{
    const std::int64_t d = normalizedDim(dim, x.dim(), "pypto.sort");
    s.vectorCost("pypto.sort", x, 2);
    auto [values, indices] = widened(x).sort(true, d, descending);
    return {rounded(values, x.scalar_type()), indices};
}

at::Tensor padOp(SimState& s, const at::Tensor& x, const std::vector<std::int64_t>& pad,
                 double value)
{
    if (pad.size() % 2 || pad.size() > std::size_t(2 * x.dim()))
        throw OpError{"pypto.pad: " + shapefn::toString(pad) +
                          " needs a (before, after) pair per padded dim, from the last",
                      "sim.shape"};
    for (auto p : pad)
        if (p < 0)
            throw OpError{"pypto.pad: negative padding in " + shapefn::toString(pad), "sim.shape"};
    at::Tensor r = at::constant_pad_nd(x, pad, value);
    s.vectorCost("pypto.pad", r);
    return r;
}

at::Tensor oneHotOp(SimState& s, const at::Tensor& x, std::int64_t classes)
{
    if (x.is_floating_point())
        throw OpError{"pypto.one_hot needs an integer tensor, got " + dtypeText(x), "sim.type"};
    const at::Tensor i = x.to(at::kLong);
    if (i.numel() && (i.min().item<std::int64_t>() < 0 ||
                      (classes >= 0 && i.max().item<std::int64_t>() >= classes)))
        throw OpError{"pypto.one_hot: a class index is outside 0.." + std::to_string(classes - 1),
                      "sim.index"};
    at::Tensor r = at::one_hot(i, classes);
    s.vectorCost("pypto.one_hot", r);
    return r;
}

} // namespace ptowb::sim
