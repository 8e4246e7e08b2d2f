"""PyPTO's tensor operations, with its names, parameter names and defaults (python/pypto/op/*.py,
operation.py and operator.py of hicann/pypto); each one runs in the workbench simulator
(numerics in core/sim/sim_ops.cpp), or is a stand-in that reports it is not simulated."""
import builtins as _builtins
import itertools as _itertools
import math as _math

import _ptowb_sim as _sim

from pypto._dtypes import DataType, sim_dtype as _sim_dtype
from pypto._enums import CastMode, PrecisionType, SaturationMode, ScatterMode, SIM_CAST_MODE, TopKAlgo
from pypto._errors import SimulatorError, category, not_simulated, not_simulated_class, not_simulated_message
from pypto._tensor import Element, Tensor, _index, _ints, _operand, _wrap


def _t(x, fn):
    if not isinstance(x, Tensor):
        raise TypeError(f"pypto.{fn} needs a pypto.Tensor, got {type(x).__name__}")
    return x._h


def _unary(name, x):
    return _on_declared(x, lambda whole: _wrap(_sim.unary(name, _t(whole, name))))


def _on_declared(x, compute):
    """compute(x), for a tensor that holds only the valid part of a view inside its tensor done
    on the whole declared view and narrowed again, so that a later reshape by the declared shape
    finds it there (deepseek_v32 casts a gathered tail tile, then reshapes it by its full rows)."""
    declared = _declared_view(x)
    if declared is x:
        return _keep_declared(compute(x), x)
    whole = compute(declared)
    return view(whole, whole.shape, [0] * len(whole.shape), valid_shape=list(x.shape))


def _declared_view(x):
    """The whole declared view of a tensor that holds only the valid part of a view lying inside
    its tensor, else x itself."""
    region = getattr(x, "_region", None)
    return view(*region) if region else x


def _keep_declared(result, *operands):
    """An elementwise result of the shape of an operand that holds only the valid part of its
    declared shape keeps that declared shape: a softmax over the valid columns of a [g, 640]
    score tile is [g, 640] to the matmul after it (see _valid_inner)."""
    if result._declared is None:
        for x in operands:
            declared = getattr(x, "_declared", None)
            if declared and list(x.shape) == list(result.shape):
                result._declared = declared
                break
    return result


def _binary(name, x, other):
    x, other = _on_valid_part(x, other)
    return _keep_declared(_wrap(_sim.binary(name, _operand(x), _operand(other))), x, other)


def _on_valid_part(*operands):
    """Elementwise operands whose shapes do not broadcast, one of which holds only the valid part
    of a declared shape the others have, meet on that valid part, which is what PyPTO computes:
    win_attention masks a [256, 384] score tile with a mask view of which 128 rows are valid."""
    tensors = [x for x in operands if isinstance(x, Tensor)]
    # Every operator and elementwise function comes here: the attribute first, the shapes only
    # for an operand that holds a valid part.
    narrowed = next((x for x in tensors if x._declared and len(x._declared) == len(x.shape)), None)
    if narrowed is None or _broadcast(*[x.shape for x in tensors]):
        return operands
    declared, valid = narrowed._declared, list(narrowed.shape)
    met = []
    for x in operands:
        if isinstance(x, Tensor) and len(x.shape) == len(declared) and x is not narrowed:
            target = [v if n == d != 1 else n for n, d, v in zip(x.shape, declared, valid)]
            if target != list(x.shape) and all(n in (d, 1) for n, d in zip(x.shape, declared)):
                x = view(x, target, [0] * len(target))
        met.append(x)
    return met


def _broadcast(*shapes):
    for sizes in _itertools.zip_longest(*[list(reversed(s)) for s in shapes], fillvalue=1):
        if len(set(sizes) - {1}) > 1:
            return False
    return True


# --- elementwise (op/math.py) ---
def _times(other, alpha):
    # `alpha` is 0.2.0's (input + alpha * other); HEAD dropped it.
    if alpha == 1:
        return other
    return mul(other, alpha) if isinstance(other, Tensor) else other * alpha


@category("elementwise")
def add(input_tensor, other, *, alpha=1):
    return _binary("add", input_tensor, _times(other, alpha))


@category("elementwise")
def sub(input_tensor, other, *, alpha=1):
    return _binary("sub", input_tensor, _times(other, alpha))


@category("elementwise")
def mul(input_tensor, other):
    return _binary("mul", input_tensor, other)


@category("elementwise")
def div(input, other, precision_type=PrecisionType.HIGH_PRECISION):
    return _binary("div", input, other)


@category("elementwise")
def fmod(input, other, precision_type=PrecisionType.HIGH_PRECISION):
    return _binary("fmod", input, other)


@category("elementwise")
def remainder(input, other, precision_type=PrecisionType.HIGH_PRECISION):
    return _binary("remainder", input, other)


@category("elementwise")
def pow(base, other, precision_type=PrecisionType.HIGH_PRECISION):
    return _binary("pow", base, other)


@category("elementwise")
def hypot(self, other):
    return _binary("hypot", self, other)


@category("elementwise")
def atan2(y, x):
    return _binary("atan2", y, x)


@category("elementwise")
def copysign(input, other):
    return _binary("copysign", input, other)


@category("elementwise")
def maximum(input, other):
    return _binary("maximum", input, other)


@category("elementwise")
def minimum(input, other):
    return _binary("minimum", input, other)


@category("elementwise")
def bitwise_and(self, other):
    return _binary("bitwise_and", self, other)


@category("elementwise")
def bitwise_or(input1, input2):
    return _binary("bitwise_or", input1, input2)


@category("elementwise")
def bitwise_xor(first, second):
    return _binary("bitwise_xor", first, second)


@category("elementwise")
def bitwise_left_shift(input, other):
    return _binary("bitwise_left_shift", input, other)


@category("elementwise")
def bitwise_right_shift(input, other):
    return _binary("bitwise_right_shift", input, other)


@category("elementwise")
def logical_and(input, other):
    return _binary("logical_and", input, other)


@category("elementwise")
def floor_div(input, other):
    return _binary("floor_divide", input, other)


@category("elementwise")
def ceil_div(self, other):
    return neg(floor_div(neg(self), other))


@category("elementwise")
def axpy_(y, x, alpha=1.0):
    y.move(add(y, mul(x, alpha)))
    return y


@category("elementwise")
def exp(input, precision_type=PrecisionType.INTRINSIC):
    return _unary("exp", input)


@category("elementwise")
def log(input, precision_type=PrecisionType.INTRINSIC):
    return _unary("log", input)


@category("elementwise")
def log2(input, precision_type=PrecisionType.INTRINSIC):
    return _unary("log2", input)


@category("elementwise")
def log10(input, precision_type=PrecisionType.INTRINSIC):
    return _unary("log10", input)


@category("elementwise")
def sqrt(input, precision_type=PrecisionType.INTRINSIC):
    return _unary("sqrt", input)


@category("elementwise")
def rsqrt(input, precision_type=PrecisionType.INTRINSIC):
    return _unary("rsqrt", input)


@category("elementwise")
def reciprocal(a, precision_type=PrecisionType.HIGH_PRECISION):
    return _unary("reciprocal", a)


@category("elementwise")
def round(input, decimals=0):
    return _wrap(_sim.round(_t(input, "round"), _index(decimals)))


@category("elementwise")
def exp2(input):
    return _unary("exp2", input)


@category("elementwise")
def expm1(input):
    return _unary("expm1", input)


@category("elementwise")
def log1p(input):
    return _unary("log1p", input)


@category("elementwise")
def sin(self):
    return _unary("sin", self)


@category("elementwise")
def cos(self):
    return _unary("cos", self)


@category("elementwise")
def tan(x):
    return _unary("tan", x)


@category("elementwise")
def asin(self):
    return _unary("asin", self)


@category("elementwise")
def acos(self):
    return _unary("acos", self)


@category("elementwise")
def atan(self):
    return _unary("atan", self)


@category("elementwise")
def sinh(input):
    return _unary("sinh", input)


@category("elementwise")
def cosh(input):
    return _unary("cosh", input)


@category("elementwise")
def tanh(a):
    return _unary("tanh", a)


@category("elementwise")
def asinh(input):
    return _unary("asinh", input)


@category("elementwise")
def acosh(input):
    return _unary("acosh", input)


@category("elementwise")
def atanh(input):
    return _unary("atanh", input)


@category("elementwise")
def erf(self):
    return _unary("erf", self)


@category("elementwise")
def erfc(input):
    return _unary("erfc", input)


@category("elementwise")
def sign(a):
    return _unary("sign", a)


@category("elementwise")
def abs(a):
    return _unary("abs", a)


@category("elementwise")
def relu(a):
    return _unary("relu", a)


@category("elementwise")
def neg(a):
    return _unary("neg", a)


@category("elementwise")
def ceil(input):
    return _unary("ceil", input)


@category("elementwise")
def floor(input):
    return _unary("floor", input)


@category("elementwise")
def trunc(input):
    return _unary("trunc", input)


@category("elementwise")
def sigmoid(input):
    return _unary("sigmoid", input)


@category("elementwise")
def logical_not(input):
    return _unary("logical_not", input)


@category("elementwise")
def bitwise_not(self):
    return _unary("bitwise_not", self)


@category("elementwise")
def isfinite(self):
    return _unary("isfinite", self)


@category("elementwise")
def isnan(self):
    return _unary("isnan", self)


@category("elementwise")
def signbit(a):
    if a.dtype in (DataType.DT_UINT8, DataType.DT_UINT16, DataType.DT_UINT32, DataType.DT_UINT64, DataType.DT_BOOL):
        return full(a.shape, False, DataType.DT_BOOL)
    return lt(a, 0)


@category("elementwise")
def lrelu(other, negative_slope=0.01):
    return where(ge(other, 0), other, mul(other, negative_slope))


@category("elementwise")
def prelu(self, weight):
    return where(ge(self, 0), self, mul(self, weight))


@category("elementwise")
def clip(input, min=None, max=None):
    return _wrap(
        _sim.clip(_t(input, "clip"), None if min is None else _operand(min), None if max is None else _operand(max))
    )


@category("elementwise")
def cbrt(self):
    return mul(sign(self), pow(abs(self), 1.0 / 3.0))


# --- comparison (op/comparison.py) ---
def _compare(name, input, other):
    input, other = _on_valid_part(input, other)
    return _keep_declared(_wrap(_sim.compare(name, _operand(input), _operand(other))), input, other)


@category("comparison")
def eq(input, other):
    return _compare("eq", input, other)


@category("comparison")
def ne(input, other):
    return _compare("ne", input, other)


@category("comparison")
def lt(input, other):
    return _compare("lt", input, other)


@category("comparison")
def le(input, other):
    return _compare("le", input, other)


@category("comparison")
def gt(input, other):
    return _compare("gt", input, other)


@category("comparison")
def ge(input, other):
    return _compare("ge", input, other)


@category("comparison")
def greater(input, other):
    return _compare("gt", input, other)


@category("comparison")
def where(condition, input, other):
    condition, input, other = _on_valid_part(condition, input, other)
    return _keep_declared(
        _wrap(_sim.where(_t(condition, "where"), _operand(input), _operand(other))), condition, input, other
    )


# --- reductions (op/reduction.py, operator.py) ---
def _reduce(name, input, dim, keepdim):
    """A reduction of a tensor that holds only the valid part of its declared shape: its result
    has the declared shape with the reduced dims gone (or 1), for the elementwise ops after it
    (see _on_valid_part: win_attention subtracts a [128, 1] row max of the valid rows from a
    [256, 1] sink)."""
    dims = _dims(dim)
    result = _wrap(_sim.reduce(name, _t(input, name), dims, bool(keepdim)))
    declared = input._declared
    if declared:
        rank = len(declared)
        reduced = {d % rank for d in dims} if dims else set(range(rank))
        kept = [1 if d in reduced else n for d, n in enumerate(declared)]
        result._declared = kept if keepdim else [n for d, n in enumerate(declared) if d not in reduced]
    return result


def _dims(dim):
    if dim is None:
        return []
    if isinstance(dim, (list, tuple)):
        return [_index(d) for d in dim]
    return [_index(dim)]


@category("reduction")
def sum(input, dim, keepdim=False):
    return _reduce("sum", input, dim, keepdim)


@category("reduction")
def amax(input, dim, keepdim=False):
    return _reduce("amax", input, dim, keepdim)


@category("reduction")
def amin(input, dim, keepdim=False):
    return _reduce("amin", input, dim, keepdim)


@category("reduction")
def prod(self, dim, keepdim=False):
    return _reduce("prod", self, dim, keepdim)


@category("reduction")
def argmax(input, dim=-1, keepdim=False):
    return _wrap(_sim.argreduce("argmax", _t(input, "argmax"), None if dim is None else _index(dim), bool(keepdim)))


@category("reduction")
def argmin(input, dim=-1, keepdim=False):
    return _wrap(_sim.argreduce("argmin", _t(input, "argmin"), None if dim is None else _index(dim), bool(keepdim)))


@category("reduction")
def softmax(input, dim):
    return _wrap(_sim.softmax(_t(input, "softmax"), _index(dim)))


@category("reduction")
def var(input, dim=None, correction=1, keepdim=False):
    dims = _dims(dim) or list(_builtins.range(len(input.shape)))
    count = 1
    for d in dims:
        count *= input.shape[d]
    mean = div(sum(input, dims, keepdim=True), count)
    centered = sub(input, mean)
    return div(sum(mul(centered, centered), dims, keepdim=keepdim), _builtins.max(count - correction, 0))


@category("reduction")
def rms_norm(input, gamma=None, epsilon=1e-06):
    squares = mul(input, input)
    mean = div(sum(squares, -1, keepdim=True), input.shape[-1])
    out = mul(input, rsqrt(add(mean, epsilon)))
    return out if gamma is None else mul(out, gamma)


@category("reduction")
def topk(input, k, dim=None, largest=True, algo=TopKAlgo.MERGE_SORT):
    values, indices = _sim.topk(_t(input, "topk"), _index(k), -1 if dim is None else _index(dim), bool(largest))
    return _wrap(values), _wrap(indices)


@category("reduction")
def argsort(input, dim=None, descending=False):
    _, indices = _sim.sort(_t(input, "argsort"), -1 if dim is None else _index(dim), bool(descending))
    return _wrap(indices)


# --- matmul (op/matmul.py) ---
@category("matmul")
def matmul(input, mat2, out_dtype, *, a_trans=False, b_trans=False, c_matrix_nz=False, extend_params=None):
    params = dict(extend_params or {})
    bias = params.pop("bias_tensor", None)
    scale = params.pop("scale", None)
    relu = params.pop("relu_type", None)
    if relu is not None and getattr(relu, "name", "") not in ("RELU", "NO_RELU"):
        raise ValueError(f"pypto.matmul: extend_params['relu_type'] is a pypto.ReLuType, got {relu!r}")
    for key, value in params.items():
        if value is not None:
            raise SimulatorError(not_simulated_message(f"matmul with extend_params[{key!r}]"))
    if isinstance(scale, Tensor):
        raise SimulatorError(not_simulated_message("matmul with a tensor scale in extend_params"))
    scale = scale or None  # no scale (or 0, PyPTO's default) leaves the product as it is
    input, mat2 = _valid_inner(input, mat2, a_trans, b_trans)
    return _wrap(
        _sim.matmul(
            _t(input, "matmul"),
            _t(mat2, "matmul"),
            _sim_dtype(out_dtype),
            bool(a_trans),
            bool(b_trans),
            None if bias is None else _t(bias, "matmul"),
            None if scale is None else float(scale),
            None,
            relu is not None and relu.name == "RELU",
        )
    )


def _valid_inner(a, b, a_trans, b_trans):
    """The cube accumulates over the valid part of k: an operand that holds k of its declared
    columns (compress_flash_attention's softmax over the valid keys of a [g, 640] tile) meets the
    first k rows of the other, whose declared k it shares."""
    if not (isinstance(a, Tensor) and isinstance(b, Tensor)) or len(a.shape) < 2 or len(b.shape) < 2:
        return a, b
    a_dim, b_dim = (-2 if a_trans else -1), (-1 if b_trans else -2)
    ka, kb = a.shape[a_dim], b.shape[b_dim]
    if ka < kb and (a._declared or a.shape)[a_dim] == kb:
        return a, _leading(b, b_dim, ka)
    if kb < ka and (b._declared or b.shape)[b_dim] == ka:
        return _leading(a, a_dim, kb), b
    return a, b


def _leading(x, dim, n):
    shape = list(x.shape)
    shape[dim] = n
    return view(x, shape, [0] * len(shape))


# --- data movement (operation.py, op/indexing.py, op/joining.py, op/mutating.py) ---
@category("data")
def cast(input, dtype, mode=CastMode.CAST_NONE, satmode=SaturationMode.OFF):
    if mode not in SIM_CAST_MODE:
        raise SimulatorError(not_simulated_message(f"cast with {mode!r}"))
    return _on_declared(
        input, lambda whole: _wrap(_sim.cast(_t(whole, "cast"), _sim_dtype(dtype), SIM_CAST_MODE[mode]))
    )


@category("data")
def view(input, shape=None, offsets=None, *, valid_shape=None, dtype=None):
    region = getattr(input, "_region", None)
    if dtype is not None and dtype != input.dtype and shape is None and offsets is None and region:
        input, shape, offsets = region  # the whole of a view that holds only its valid part
    shape = input.shape if shape is None else _ints(shape)
    offsets = [0] * len(shape) if offsets is None else _ints(offsets)
    if region and not _inside(_ints(input.shape), shape, offsets) and _inside(region[1], shape, offsets):
        input = view(*region)  # a view of the declared part past the valid one, as PyPTO takes it
    if valid_shape is None:
        valid_shape = _derived_valid_shape(_ints(input.shape), shape, offsets)
    if dtype is not None and dtype != input.dtype and _inside(_ints(input.shape), shape, offsets):
        # A reinterpreting view reads the bytes of its whole shape, as PyPTO counts them when it is
        # reshaped (deepseek_v32's antiquant kernels view 32 int8 of which 16 are valid as 8
        # floats, then reshape by 8): the bytes past the valid part are the input's own.
        valid_shape = None
    viewed = _wrap(_sim.view(_t(input, "view"), shape, offsets, None if valid_shape is None else _ints(valid_shape)))
    if dtype is None or dtype == input.dtype:
        if list(viewed.shape) != list(shape):
            viewed._declared = list(shape)
            if _inside(_ints(input.shape), shape, offsets):
                viewed._region = (input, shape, offsets)
        return viewed
    # The view's bytes read as dtype (view's API page: a [2, 2] DT_FP32 viewed as DT_INT8 is
    # [2, 8]), torch's Tensor.view(dtype): the last dim scales by the ratio of element sizes.
    leading = list(viewed.shape[:-1])
    flat = _bitcast(viewed, dtype, "view")
    rows = 1
    for d in leading:
        rows *= d
    if not leading or not rows:
        return flat if not leading else reshape(flat, leading + [0])
    if flat.shape[0] % rows:
        raise SimulatorError(
            f"pypto.view: the last dim of a {viewed.shape} {viewed.dtype!r} view does not hold a whole "
            f"number of {dtype!r} elements"
        )
    return reshape(flat, leading + [flat.shape[0] // rows])


def _inside(held, shape, offsets):
    return len(held) == len(shape) == len(offsets) and all(
        0 <= o and o + n <= h for h, n, o in zip(held, shape, offsets)
    )


def _derived_valid_shape(held, shape, offsets):
    """PyPTO derives a view's valid shape when none is given: a tile that starts inside the tensor
    and runs past its end holds what is left (a [64, 64] view at [0, 128] of a [72, 144] tensor
    holds [64, 16]). None when the view fits, or starts outside (the simulator reports that)."""
    if len(held) != len(shape) or len(offsets) != len(shape):
        return None
    if any(o < 0 or o >= h for o, h in zip(offsets, held)):
        return None
    valid = [_builtins.min(s, h - o) for s, h, o in zip(shape, held, offsets)]
    return valid if valid != list(shape) else None


@category("data")
def assemble(*args, parallel=False):
    if len(args) == 3:
        src, offsets, dst = args
        _sim.assemble(_t(src, "assemble"), _ints(offsets), _t(dst, "assemble"))
        return
    if len(args) == 2:
        srcs, dst = args
        for src, offsets in srcs:
            _sim.assemble(_t(src, "assemble"), _ints(offsets), _t(dst, "assemble"))
        return
    raise TypeError(f"assemble() takes (src, offsets, dst) or (srcs, dst), got {len(args)} positional arguments")


@category("data")
def atomic_add(src, offsets, dst):
    # dst[offsets : offsets + src.shape] += src; a kernel runs one core at a time here, so the
    # accumulation order is the program's.
    offsets = _ints(offsets)
    region = view(dst, src.shape, offsets)
    _sim.assemble(_t(add(region, src), "atomic_add"), offsets, _t(dst, "atomic_add"))


@category("data")
def reshape(input, shape, *, valid_shape=None, inplace=False):
    shape = _ints(shape)
    region = getattr(input, "_region", None)
    if region and _math.prod(input.shape) != _math.prod(shape) == _math.prod(region[1]):
        # A tensor that holds only the valid part of its declared shape is reshaped as PyPTO
        # reshapes it, whole (its columns past the valid ones are dropped by a later view).
        input = view(*region)
    if valid_shape is not None:
        # A view at a boundary holds only its valid part (docs/kernels-and-simulator.md): such a
        # tensor takes the valid shape, as PyPTO's tail tiles do.
        valid = _ints(valid_shape)
        held = _math.prod(_ints(input.shape))
        if held != _math.prod(shape) and held == _math.prod(valid):
            shape = valid
    declared = getattr(input, "_declared", None)
    if declared and _math.prod(input.shape) != _math.prod(shape) == _math.prod(declared):
        valid = _reshaped_valid(declared, list(input.shape), shape)
        if valid is not None:
            result = _wrap(_sim.reshape(_t(input, "reshape"), valid))
            result._declared = list(shape)
            return result
    return _wrap(_sim.reshape(_t(input, "reshape"), shape))


def _reshaped_valid(declared, valid, shape):
    """The valid part of `shape` when a tensor holding the `valid` part of its `declared` shape is
    reshaped to it (a tail tile of a loop over rows, past the end of its tensor, reshaped by its
    declared shape): known when every partly valid dim is kept as it is, the others split or
    merged whole. None when a partly valid dim is split or merged."""
    result, i, j = [], 0, 0
    while i < len(declared) and j < len(shape):
        a, b, group_i, group_j = declared[i], shape[j], [i], [j]
        while a != b:
            if a < b and group_i[-1] + 1 < len(declared):
                group_i.append(group_i[-1] + 1)
                a *= declared[group_i[-1]]
            elif b < a and group_j[-1] + 1 < len(shape):
                group_j.append(group_j[-1] + 1)
                b *= shape[group_j[-1]]
            else:
                return None
        partial = [k for k in group_i if valid[k] != declared[k]]
        if not partial:
            result += [shape[k] for k in group_j]
        elif len(group_i) == 1 and len(group_j) == 1:
            result.append(valid[i])
        else:
            return None
        i, j = group_i[-1] + 1, group_j[-1] + 1
    # Trailing dims of size 1 on either side.
    if any(declared[k] != 1 or valid[k] != 1 for k in range(i, len(declared))):
        return None
    return result + [1] * (len(shape) - j)


@category("data")
def clone(input):
    return _wrap(_sim.clone(_t(input, "clone")))


@category("data")
def unsqueeze(input, dim):
    return _wrap(_sim.unsqueeze(_t(input, "unsqueeze"), _index(dim)))


@category("data")
def permute(input_tensor, dims):
    dims = _ints(dims)
    return _permuted_declared(_wrap(_sim.permute(_t(input_tensor, "permute"), dims)), input_tensor, dims)


@category("data")
def transpose(input, dim0, dim1):
    dim0, dim1 = _index(dim0), _index(dim1)
    result = _wrap(_sim.transpose(_t(input, "transpose"), dim0, dim1))
    order = list(range(len(input.shape)))
    order[dim0], order[dim1] = order[dim1], order[dim0]
    return _permuted_declared(result, input, order)


def _permuted_declared(result, input, order):
    """A tensor that holds only the valid part of its declared shape keeps it, its dims reordered."""
    declared = getattr(input, "_declared", None)
    if declared and len(declared) == len(order):
        result._declared = [declared[d] for d in order]
    return result


@category("data")
def expand_clone(input, shape, *, valid_shape=None):
    return _wrap(_sim.expand(_t(input, "expand_clone"), _ints(shape)))


@category("data")
def concat(tensors, dim=0):
    dim = _index(dim)
    wholes = [_declared_view(t) for t in tensors]
    narrowed_alike = (
        len({tuple(_other_dims(t.shape, dim)) for t in tensors}) == 1
        and len({tuple(_other_dims(w.shape, dim)) for w in wholes}) == 1
        and all(w.shape[dim] == t.shape[dim] for w, t in zip(wholes, tensors))
    )
    if any(w is not t for w, t in zip(wholes, tensors)) and narrowed_alike:
        # Pieces narrowed alike outside dim are joined whole and narrowed alike (see _on_declared).
        whole = _wrap(_sim.concat([_t(t, "concat") for t in wholes], dim))
        valid = list(whole.shape)
        for d, n in enumerate(tensors[0].shape):
            if d != dim % len(valid):
                valid[d] = n
        return view(whole, whole.shape, [0] * len(valid), valid_shape=valid)
    return _wrap(_sim.concat([_t(t, "concat") for t in tensors], dim))


def _other_dims(shape, dim):
    return [n for d, n in enumerate(shape) if d != dim % len(shape)]


@category("data")
def gather(input, dim, index):
    return _wrap(_sim.gather(_t(input, "gather"), _index(dim), _t(index, "gather")))


@category("data")
def index_select(input, dim, index):
    return _wrap(_sim.index_select(_t(input, "index_select"), _index(dim), _t(index, "index_select")))


@category("option")
def get_scatter_mode(reduce):
    modes = {None: ScatterMode.NONE, "add": ScatterMode.ADD, "multiply": ScatterMode.MULTIPLY}
    if reduce not in modes:
        raise ValueError("scatter reduce only support 'add', 'multiply'")
    return modes[reduce]


@category("data")
def scatter(input, dim, index, src, *, reduce=None):
    get_scatter_mode(reduce)
    return _wrap(_sim.scatter(_t(input, "scatter"), _index(dim), _t(index, "scatter"), _operand(src), reduce or ""))


@category("data")
def scatter_(input, dim, index, src, *, reduce=None):
    input.move(scatter(input, dim, index, src, reduce=reduce))
    return input


@category("data")
def index_put_(input, indices, values, accumulate=False):
    if not isinstance(indices, (tuple, list)):
        raise TypeError(f"pypto.index_put_: indices is a tuple of tensors, not {type(indices).__name__}")
    index = [_t(i, "index_put_") for i in indices]
    input.move(_wrap(_sim.index_put(_t(input, "index_put_"), index, _t(values, "index_put_"), bool(accumulate))))


@category("data")
def scatter_update(input, dim, index, src):
    # A paged cache's update, not torch's scatter (see scatterUpdateOp). In place, as its API page
    # says ("returns the updated input"): a kernel that scatters tile by tile into its cache input
    # and copies the cache out after each tile (`kv_cache_out[:] = scatter_update(kv_cache, ...)`)
    # ends with every tile's rows.
    fn = "scatter_update"
    input.move(_wrap(_sim.scatter_update(_t(input, fn), _index(dim), _t(index, fn), _t(src, fn))))
    return input


@category("data")
def pad(x, padding, mode="constant", value=0):
    if mode != "constant":
        raise SimulatorError(not_simulated_message(f"pad with mode={mode!r}"))
    return _wrap(_sim.pad(_t(x, "pad"), _ints(padding), float(_operand(value))))


@category("data")
def one_hot(input, num_classes):
    return _wrap(_sim.one_hot(_t(input, "one_hot"), _index(num_classes)))


# pypto.gathermask's pattern modes: (group size, element kept of each group) of the last dim.
GATHERMASK_PATTERNS = {1: (2, 0), 2: (2, 1), 3: (4, 0), 4: (4, 1), 5: (4, 2), 6: (4, 3)}
GATHERMASK_ALL = 7  # the whole last dim


@category("data")
def gathermask(self, pattern_mode):
    mode = _index(pattern_mode)
    if mode == GATHERMASK_ALL:
        return clone(self)
    if mode not in GATHERMASK_PATTERNS:
        raise ValueError(f"pypto.gathermask: pattern_mode must be 1 to 7, got {mode}")
    group, kept = GATHERMASK_PATTERNS[mode]
    cols = self.shape[-1]
    if cols % group:
        raise SimulatorError(
            f"pypto.gathermask: pattern_mode {mode} takes one element of every {group}, so the last "
            f"dim must be a multiple of {group}, got {self.shape}"
        )
    groups = reshape(self, self.shape[:-1] + [cols // group, group])
    shape = groups.shape[:-1]
    picked = view(groups, shape + [1], [0] * len(shape) + [kept])
    return reshape(picked, shape)


def _last_pairs(x, fn):
    """x [..., 2n] as [..., n, 2]: element 2k and 2k+1 of the last dim side by side."""
    cols = x.shape[-1]
    if cols % 2:
        raise SimulatorError(f"pypto.{fn}: the last dim must be even, got {x.shape}")
    return reshape(x, x.shape[:-1] + [cols // 2, 2])


def _even_odd(pairs):
    """The even and the odd elements of [..., n, 2] pairs, each [..., n]."""
    shape = pairs.shape[:-1]
    offsets = [0] * len(pairs.shape)
    even = view(pairs, shape + [1], offsets)
    odd = view(pairs, shape + [1], offsets[:-1] + [1])
    return reshape(even, shape), reshape(odd, shape)


@category("data")
def interleave(input, other):
    # The stream input[0], other[0], input[1], other[1], ... split at its middle.
    if input.shape != other.shape or input.dtype != other.dtype:
        raise SimulatorError(
            f"pypto.interleave: input and other must have one shape and dtype, got "
            f"{input.shape} {input.dtype!r} and {other.shape} {other.dtype!r}"
        )
    cols = input.shape[-1]
    if cols % 2:
        raise SimulatorError(f"pypto.interleave: the last dim must be even, got {input.shape}")
    stream = reshape(concat([unsqueeze(input, -1), unsqueeze(other, -1)], -1), input.shape[:-1] + [2 * cols])
    offsets = [0] * len(input.shape)
    return (view(stream, input.shape, offsets), view(stream, input.shape, offsets[:-1] + [cols]))


@category("data")
def deinterleave(input, other=None):
    # The even and the odd elements of the stream: `input` alone, or input followed by other.
    if other is not None:
        if input.shape != other.shape or input.dtype != other.dtype:
            raise SimulatorError(
                f"pypto.deinterleave: input and other must have one shape and dtype, got "
                f"{input.shape} {input.dtype!r} and {other.shape} {other.dtype!r}"
            )
        if input.shape[-1] % 2:
            raise SimulatorError(f"pypto.deinterleave: the last dim must be even, got {input.shape}")
        input = concat([input, other], -1)
    return _even_odd(_last_pairs(input, "deinterleave"))


def _bitcast(x, dtype, fn):
    return _wrap(_sim.bitcast(_t(x, fn), _sim_dtype(dtype)))


@category("data")
def pack(input):
    # The tensor's bytes, flattened, as uint8 (little-endian, as on the device).
    return _bitcast(input, DataType.DT_UINT8, "pack")


@category("data")
def unpack(input, dtype):
    if input.dtype != DataType.DT_UINT8 or len(input.shape) != 1:
        raise SimulatorError(f"pypto.unpack needs a 1-D DT_UINT8 tensor, got {input.shape} {input.dtype!r}")
    return _bitcast(input, dtype, "unpack")


def _triangle(input, diagonal, keep):
    # Keeps element (i, j) of the last two dims where keep(j - i, diagonal); the rest is 0.
    rows, cols = input.shape[-2], input.shape[-1]
    i = reshape(arange(rows), [rows, 1])
    j = reshape(arange(cols), [1, cols])
    return where(keep(sub(j, i), _index(diagonal)), input, 0)


@category("data")
def triu(input, diagonal=0):
    return _triangle(input, diagonal, ge)


@category("data")
def tril(input, diagonal=0):
    return _triangle(input, diagonal, le)


# --- creation (op/creation.py) ---
@category("data")
def convert_to_element(value):
    if isinstance(value, int):
        return Element(DataType.DT_INT32 if -(2**31) <= value < 2**31 else DataType.DT_INT64, value)
    return Element(DataType.DT_FP32, value)


@category("data")
def full(size, fill_value, dtype, *, valid_shape=None):
    return _wrap(_sim.full(_ints(size), float(_operand(fill_value)), _sim_dtype(dtype)))


def _size(size):
    if len(size) == 1 and isinstance(size[0], (list, tuple)):
        return _ints(size[0])
    return _ints(size)


@category("data")
def zeros(*size, dtype=None):
    return _wrap(_sim.full(_size(size), 0.0, _sim_dtype(dtype or DataType.DT_FP32)))


@category("data")
def ones(*size, dtype=None):
    return _wrap(_sim.full(_size(size), 1.0, _sim_dtype(dtype or DataType.DT_FP32)))


@category("data")
def arange(*args):
    if not 1 <= len(args) <= 3:
        raise ValueError(f"The length of args should in [1, 2, 3], but got {len(args)}.")
    start, end, step = (0, args[0], 1) if len(args) == 1 else (args[0], args[1], args[2] if len(args) == 3 else 1)
    values = [v.value if isinstance(v, Element) else v for v in (start, end, step)]
    # As PyPTO's elements: ints are DT_INT32 (DT_INT64 past its range), anything else DT_FP32.
    if all(isinstance(v, int) or hasattr(v, "__index__") for v in values):
        big = any(not -(2**31) <= _index(v) < 2**31 for v in values)
        chosen = DataType.DT_INT64 if big else DataType.DT_INT32
    else:
        chosen = DataType.DT_FP32
    return _wrap(_sim.arange(*(float(_operand(v)) for v in values), _sim_dtype(chosen)))


# --- pass verification (op/verify.py): the simulator computes every value already ---
@category("option")
def pass_verify_print(*values, cond=1):
    pass


@category("option")
def pass_verify_save(tensor, fname, cond=1, **kwargs):
    pass


# PyPTO ops the simulator does not run: calling one is an error at the calling line.
conv = not_simulated(
    "conv",
    "input_conv, weight, out_dtype, strides, paddings, dilations, *, groups=1, "
    "transposed=False, output_paddings=None, extend_params=None",
    "matmul",
)
ConvParams = not_simulated_class("ConvParams")
scaled_mm = not_simulated(
    "scaled_mm",
    "mat_a, mat_b, out_dtype, scale_a, scale_b, *, a_trans=False, b_trans=False, "
    "scale_a_trans=False, scale_b_trans=False, c_matrix_nz=False, "
    "extend_params=None",
    "matmul",
)
quantize = not_simulated("quantize", "input, scale, otype, axis, zero_points=None", "data")
dequantize = not_simulated("dequantize", "input, scale, otype, axis, zero_points=None", "data")
quant_mx = not_simulated(
    "quant_mx",
    "input, quant_dtype=DataType.DT_FP8E4M3, "
    "mode=DequantScaleRoundingMode.ROUND_DOWN, axis=-1, performance_mode=True",
    "data",
)
uniform = not_simulated("uniform", "shape, key, counter, alg, dtype", "data")
uniform_impl = not_simulated("uniform_impl", "key, counter0, counter1, shape, rounds=10, dtype=None", "data")
normal = not_simulated("normal", "shape, key, counter, alg, dtype", "data")
sort32 = not_simulated("sort32", "input, index=None", "reduction")
mrgsort = not_simulated("mrgsort", "input, mergesize", "reduction")
index_add = not_simulated("index_add", "input, dim, index, source, *, alpha=1", "data")
index_add_ = not_simulated("index_add_", "input, dim, index, source, *, alpha=1", "data")
index_add_ub = not_simulated("index_add_ub", "input, dim, index, source, *, alpha=1", "data")
index_add__ub = not_simulated("index_add__ub", "input, dim, index, source, *, alpha=1", "data")
gcd = not_simulated("gcd", "input, other", "elementwise")
expand_exp_dif = not_simulated("expand_exp_dif", "input, other", "elementwise")
fillpad = not_simulated("fillpad", "x, mode='constant', value=0", "data")
cumsum = not_simulated("cumsum", "input, dim", "reduction")
cumprod = not_simulated("cumprod", "input, dim", "reduction")


# --- slice assignment: PyPTO's Tensor.__setitem__ ---
def _set_slice(target, key, value):
    if not isinstance(key, tuple):
        key = (key,)
    if all(isinstance(k, slice) and k.start is None and k.stop is None and k.step is None for k in key) or key == (
        Ellipsis,
    ):
        if isinstance(value, Tensor):
            if value.shape == target.shape:
                target.move(value)
                return
        else:
            _sim.fill(_t(target, "setitem"), float(_operand(value)))
            return
    if not isinstance(value, Tensor):
        _sim.fill(_sim.getitem(target._h, tuple(_norm(k) for k in key)), float(_operand(value)))
        return
    shape = target.shape
    expanded = []
    for k in key:
        if k is Ellipsis:
            expanded.extend([slice(None)] * (len(shape) - (len(key) - 1)))
        else:
            expanded.append(k)
    expanded.extend([slice(None)] * (len(shape) - len(expanded)))
    offsets, value_shape, vdims = [], [], iter(value.shape)
    for d, k in enumerate(expanded):
        if isinstance(k, slice):
            start = 0 if k.start is None else _index(k.start)
            offsets.append(start + shape[d] if start < 0 else start)
            value_shape.append(next(vdims, 1))
        else:
            i = _index(k)
            offsets.append(i + shape[d] if i < 0 else i)
            value_shape.append(1)
    if len(value.shape) != len(shape):
        value = reshape(value, value_shape)
    _sim.assemble(value._h, offsets, target._h)


def _norm(k):
    from pypto._tensor import _index_key

    return _index_key(k)
