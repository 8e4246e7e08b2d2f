"""PyPTO's tensor operations, with its names, parameter names and defaults; each one runs in
the workbench simulator (numerics in core/sim/sim_ops.cpp)."""
import builtins

import _ptowb_sim as _sim

from pypto._dtypes import DataType, sim_dtype as _sim_dtype
from pypto._enums import CastMode, PrecisionType, SaturationMode, TopKAlgo
from pypto._tensor import SimulatorError, Tensor, _index, _ints, _operand, _wrap


def _t(x, fn):
    if not isinstance(x, Tensor):
        raise TypeError(f"pypto.{fn} needs a pypto.Tensor, got {type(x).__name__}")
    return x._h


def _unary(name):
    def op(x):
        return _wrap(_sim.unary(name, _t(x, name)))
    op.__name__ = name
    return op


def _binary(name, native=None):
    def op(x, other):
        return _wrap(_sim.binary(native or name, _operand(x), _operand(other)))
    op.__name__ = name
    return op


# --- elementwise (python/pypto/op/math.py) ---
def add(input_tensor, other): return _wrap(_sim.binary("add", _operand(input_tensor), _operand(other)))
def sub(input_tensor, other): return _wrap(_sim.binary("sub", _operand(input_tensor), _operand(other)))
def mul(input_tensor, other): return _wrap(_sim.binary("mul", _operand(input_tensor), _operand(other)))
def div(input, other, precision_type=PrecisionType.HIGH_PRECISION): return _wrap(_sim.binary("div", _operand(input), _operand(other)))
def fmod(input, other, precision_type=PrecisionType.HIGH_PRECISION): return _wrap(_sim.binary("fmod", _operand(input), _operand(other)))
def remainder(input, other, precision_type=PrecisionType.HIGH_PRECISION): return _wrap(_sim.binary("remainder", _operand(input), _operand(other)))
def pow(base, other, precision_type=PrecisionType.HIGH_PRECISION): return _wrap(_sim.binary("pow", _operand(base), _operand(other)))
def hypot(self, other): return _wrap(_sim.binary("hypot", _operand(self), _operand(other)))
def atan2(y, x): return _wrap(_sim.binary("atan2", _operand(y), _operand(x)))
def copysign(input, other): return _wrap(_sim.binary("copysign", _operand(input), _operand(other)))
def maximum(input, other): return _wrap(_sim.binary("maximum", _operand(input), _operand(other)))
def minimum(input, other): return _wrap(_sim.binary("minimum", _operand(input), _operand(other)))
def bitwise_and(self, other): return _wrap(_sim.binary("bitwise_and", _operand(self), _operand(other)))
def bitwise_or(input1, input2): return _wrap(_sim.binary("bitwise_or", _operand(input1), _operand(input2)))
def bitwise_xor(first, second): return _wrap(_sim.binary("bitwise_xor", _operand(first), _operand(second)))
def bitwise_left_shift(input, other): return _wrap(_sim.binary("bitwise_left_shift", _operand(input), _operand(other)))
def bitwise_right_shift(input, other): return _wrap(_sim.binary("bitwise_right_shift", _operand(input), _operand(other)))
def logical_and(input, other): return _wrap(_sim.binary("logical_and", _operand(input), _operand(other)))
def floor_div(input, other): return _wrap(_sim.binary("floor_divide", _operand(input), _operand(other)))
def ceil_div(self, other): return neg(floor_div(neg(self), other))


def axpy_(y, x, alpha=1.0):
    y.move(add(y, mul(x, alpha)))
    return y


def exp(input, precision_type=PrecisionType.INTRINSIC): return _wrap(_sim.unary("exp", _t(input, "exp")))
def log(input, precision_type=PrecisionType.INTRINSIC): return _wrap(_sim.unary("log", _t(input, "log")))
def log2(input, precision_type=PrecisionType.INTRINSIC): return _wrap(_sim.unary("log2", _t(input, "log2")))
def log10(input, precision_type=PrecisionType.INTRINSIC): return _wrap(_sim.unary("log10", _t(input, "log10")))
def sqrt(input, precision_type=PrecisionType.INTRINSIC): return _wrap(_sim.unary("sqrt", _t(input, "sqrt")))
def rsqrt(input, precision_type=PrecisionType.INTRINSIC): return _wrap(_sim.unary("rsqrt", _t(input, "rsqrt")))
def reciprocal(a, precision_type=PrecisionType.HIGH_PRECISION): return _wrap(_sim.unary("reciprocal", _t(a, "reciprocal")))
def round(input, decimals=0): return _wrap(_sim.round(_t(input, "round"), _index(decimals)))


exp2 = _unary("exp2")
expm1 = _unary("expm1")
log1p = _unary("log1p")
sin, cos, tan, atan, asin, acos = (_unary(n) for n in ("sin", "cos", "tan", "atan", "asin", "acos"))
sinh, cosh, asinh, acosh, atanh = (_unary(n) for n in ("sinh", "cosh", "asinh", "acosh", "atanh"))
erf, erfc, sign, tanh, abs, relu, neg = (_unary(n) for n in ("erf", "erfc", "sign", "tanh", "abs", "relu", "neg"))
ceil, floor, trunc, sigmoid = (_unary(n) for n in ("ceil", "floor", "trunc", "sigmoid"))
logical_not, bitwise_not, isfinite, isnan = (_unary(n) for n in ("logical_not", "bitwise_not", "isfinite", "isnan"))


def signbit(a): return lt(a, 0) if not _is_unsigned(a) else full(a.shape, False, DataType.DT_BOOL)
def _is_unsigned(a): return a.dtype in (DataType.DT_UINT8,)


def lrelu(other, negative_slope=0.01):
    return where(ge(other, 0), other, mul(other, negative_slope))


def prelu(self, weight):
    return where(ge(self, 0), self, mul(self, weight))


def clip(input, min=None, max=None):
    return _wrap(_sim.clip(_t(input, "clip"), None if min is None else _operand(min), None if max is None else _operand(max)))


def cbrt(self):
    return mul(sign(self), pow(abs(self), 1.0 / 3.0))


# --- comparison ---
def eq(input, other): return _wrap(_sim.compare("eq", _operand(input), _operand(other)))
def ne(input, other): return _wrap(_sim.compare("ne", _operand(input), _operand(other)))
def lt(input, other): return _wrap(_sim.compare("lt", _operand(input), _operand(other)))
def le(input, other): return _wrap(_sim.compare("le", _operand(input), _operand(other)))
def gt(input, other): return _wrap(_sim.compare("gt", _operand(input), _operand(other)))
def ge(input, other): return _wrap(_sim.compare("ge", _operand(input), _operand(other)))
greater = gt


def where(condition, input, other):
    return _wrap(_sim.where(_t(condition, "where"), _operand(input), _operand(other)))


# --- reductions ---
def _dims(dim):
    if dim is None:
        return []
    if isinstance(dim, (list, tuple)):
        return [_index(d) for d in dim]
    return [_index(dim)]


def sum(input, dim, keepdim=False): return _wrap(_sim.reduce("sum", _t(input, "sum"), _dims(dim), bool(keepdim)))
def amax(input, dim, keepdim=False): return _wrap(_sim.reduce("amax", _t(input, "amax"), _dims(dim), bool(keepdim)))
def amin(input, dim, keepdim=False): return _wrap(_sim.reduce("amin", _t(input, "amin"), _dims(dim), bool(keepdim)))
def prod(self, dim, keepdim=False): return _wrap(_sim.reduce("prod", _t(self, "prod"), _dims(dim), bool(keepdim)))
def argmax(input, dim=-1, keepdim=False): return _wrap(_sim.argreduce("argmax", _t(input, "argmax"), None if dim is None else _index(dim), bool(keepdim)))
def argmin(input, dim=-1, keepdim=False): return _wrap(_sim.argreduce("argmin", _t(input, "argmin"), None if dim is None else _index(dim), bool(keepdim)))
def softmax(input, dim): return _wrap(_sim.softmax(_t(input, "softmax"), _index(dim)))


def var(input, dim=None, *, correction=1, keepdim=False):
    dims = _dims(dim) or list(builtins.range(len(input.shape)))
    count = 1
    for d in dims:
        count *= input.shape[d]
    mean = div(sum(input, dims, keepdim=True), count)
    centered = sub(input, mean)
    return div(sum(mul(centered, centered), dims, keepdim=keepdim), builtins.max(count - correction, 0))


def rms_norm(input, gamma=None, epsilon=1e-06):
    squares = mul(input, input)
    mean = div(sum(squares, -1, keepdim=True), input.shape[-1])
    out = mul(input, rsqrt(add(mean, epsilon)))
    return out if gamma is None else mul(out, gamma)


def topk(input, k, dim=None, largest=True, algo=TopKAlgo.MERGE_SORT):
    values, indices = _sim.topk(_t(input, "topk"), _index(k), -1 if dim is None else _index(dim), bool(largest))
    return _wrap(values), _wrap(indices)


def argsort(input, dim=None, descending=False):
    _, indices = _sim.sort(_t(input, "argsort"), -1 if dim is None else _index(dim), bool(descending))
    return _wrap(indices)


# --- matmul ---
def matmul(input, mat2, out_dtype, *, a_trans=False, b_trans=False, c_matrix_nz=False, extend_params=None):
    params = dict(extend_params or {})
    bias = params.pop("bias_tensor", None)
    scale = params.pop("scale", None)
    for key, value in params.items():
        if value is not None and not (key == "relu_type" and getattr(value, "name", "") == "NO_RELU"):
            raise SimulatorError(f"not supported by the simulator: pypto.matmul with extend_params[{key!r}]")
    if isinstance(scale, Tensor):
        raise SimulatorError("not supported by the simulator: pypto.matmul with a tensor scale in extend_params")
    scale = scale or None  # no scale (or 0, PyPTO's default) leaves the product as it is
    return _wrap(_sim.matmul(_t(input, "matmul"), _t(mat2, "matmul"), _sim_dtype(out_dtype), bool(a_trans), bool(b_trans),
                             None if bias is None else _t(bias, "matmul"), None if scale is None else float(scale), None))


# --- data movement ---
def cast(input, dtype, mode=CastMode.CAST_NONE, satmode=SaturationMode.OFF):
    return _wrap(_sim.cast(_t(input, "cast"), _sim_dtype(dtype), mode.value))


def view(input, shape=None, offsets=None, *, valid_shape=None, dtype=None):
    if dtype is not None and dtype != input.dtype:
        raise SimulatorError("not supported by the simulator: pypto.view with a dtype (a reinterpreting view)")
    shape = input.shape if shape is None else _ints(shape)
    offsets = [0] * len(shape) if offsets is None else _ints(offsets)
    return _wrap(_sim.view(_t(input, "view"), shape, offsets, None if valid_shape is None else _ints(valid_shape)))


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


def reshape(input, shape, *, valid_shape=None, inplace=False):
    return _wrap(_sim.reshape(_t(input, "reshape"), _ints(shape)))


def clone(input): return _wrap(_sim.clone(_t(input, "clone")))
def unsqueeze(input, dim): return _wrap(_sim.unsqueeze(_t(input, "unsqueeze"), _index(dim)))
def permute(input_tensor, dims): return _wrap(_sim.permute(_t(input_tensor, "permute"), _ints(dims)))
def transpose(input, dim0, dim1): return _wrap(_sim.transpose(_t(input, "transpose"), _index(dim0), _index(dim1)))
def expand_clone(input, shape, *, valid_shape=None): return _wrap(_sim.expand(_t(input, "expand_clone"), _ints(shape)))
def concat(tensors, dim=0): return _wrap(_sim.concat([_t(t, "concat") for t in tensors], _index(dim)))
def gather(input, dim, index): return _wrap(_sim.gather(_t(input, "gather"), _index(dim), _t(index, "gather")))
def index_select(input, dim, index): return _wrap(_sim.index_select(_t(input, "index_select"), _index(dim), _t(index, "index_select")))


def scatter(input, dim, index, src, *, reduce=None):
    return _wrap(_sim.scatter(_t(input, "scatter"), _index(dim), _t(index, "scatter"), _operand(src), reduce or ""))


def scatter_(input, dim, index, src, *, reduce=None):
    input.move(scatter(input, dim, index, src, reduce=reduce))
    return input


def scatter_update(input, dim, index, src):
    return scatter(input, dim, index, src)


def pad(x, padding, mode='constant', value=0):
    if mode != 'constant':
        raise SimulatorError(f"not supported by the simulator: pypto.pad with mode={mode!r}")
    return _wrap(_sim.pad(_t(x, "pad"), _ints(padding), float(value)))


def one_hot(input, num_classes): return _wrap(_sim.one_hot(_t(input, "one_hot"), _index(num_classes)))


def full(size, fill_value, dtype, *, valid_shape=None):
    return _wrap(_sim.full(_ints(size), float(_operand(fill_value)), _sim_dtype(dtype)))


def _size(size):
    if len(size) == 1 and isinstance(size[0], (list, tuple)):
        return _ints(size[0])
    return _ints(size)


def zeros(*size, dtype=None): return _wrap(_sim.full(_size(size), 0.0, _sim_dtype(dtype or DataType.DT_FP32)))
def ones(*size, dtype=None): return _wrap(_sim.full(_size(size), 1.0, _sim_dtype(dtype or DataType.DT_FP32)))


def arange(*args, dtype=None):
    if not 1 <= len(args) <= 3:
        raise TypeError(f"arange() takes 1 to 3 positional arguments, got {len(args)}")
    start, end, step = (0, args[0], 1) if len(args) == 1 else (args[0], args[1], args[2] if len(args) == 3 else 1)
    integer = all(isinstance(v, int) or hasattr(v, "__index__") for v in (start, end, step))
    chosen = dtype or (DataType.DT_INT32 if integer else DataType.DT_FP32)
    return _wrap(_sim.arange(float(_operand(start)), float(_operand(end)), float(_operand(step)), _sim_dtype(chosen)))


# --- slice assignment: PyPTO's Tensor.__setitem__ ---
def _set_slice(target, key, value):
    if not isinstance(key, tuple):
        key = (key,)
    if all(isinstance(k, slice) and k.start is None and k.stop is None and k.step is None for k in key) or key == (Ellipsis,):
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


def _tensor_method(name):
    """Tensor.<name>(...) is the module function with the tensor first."""
    if name == "fill_":
        return lambda self, other: (_sim.fill(self._h, float(_operand(other))), self)[1]
    if name == "where":
        return lambda self, condition, x, y: where(condition, x, y)
    if name == "copy":
        return lambda self, name="": clone(self)
    if name == "is_empty":
        return lambda self: any(d == 0 for d in self.shape)
    fn = globals().get(name)
    if callable(fn) and not name.startswith("_") and name not in ("full", "zeros", "ones", "arange"):
        return fn
    return None
