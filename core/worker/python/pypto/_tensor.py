"""The simulator's tensor: PyPTO's Tensor API over a handle to a libtorch tensor."""
import contextlib
import itertools

import _ptowb_sim as _sim

from pypto import _loop_tensors
from pypto._dtypes import DataType, dtype_of, sim_dtype
from pypto._enums import DequantScaleRoundingMode, PrecisionType, TileOpFormat
from pypto._errors import SimulatorError, not_simulated  # noqa: F401 - SimulatorError is imported from here
from pypto._symbolic import ScalarInt


class TensorAnnotation:
    """What `pypto.Tensor[...]` / `pypto.Tensor(shape, dtype)` say a kernel argument is. A dtype
    of None accepts any dtype; a shape of None or [] any shape."""

    def __init__(
        self, shape=None, dtype=None, name="", format=TileOpFormat.TILEOP_ND, data_ptr=None, device=None, ori_shape=None
    ):
        self.shape = shape
        self.dtype = dtype
        self.name = name
        self.format = format
        self.data_ptr = data_ptr
        self.device = device
        self.ori_shape = ori_shape

    def to_tensor(self, name=""):
        return Tensor(
            self.shape, self.dtype, name or self.name, self.format, self.data_ptr, self.device, self.ori_shape
        )

    def __repr__(self):
        return f"pypto.Tensor[{self.shape}, {self.dtype!r}]"


class Element:
    """pypto.Element: a scalar with a dtype, usable wherever an op takes a number."""

    def __init__(self, dtype, data):
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            raise ValueError(f"Invalid data type {type(data)} for Element")
        self._dtype = dtype
        self._data = data

    @property
    def dtype(self):
        return self._dtype

    @property
    def value(self):
        return self._data

    def base(self):
        return self

    def __float__(self):
        return float(self._data)

    def __repr__(self):
        return f"pypto.Element({self._dtype!r}, {self._data!r})"


def _index(value):
    """An int from an int, a loop index or a symbolic scalar."""
    if isinstance(value, int):
        return int(value)
    if hasattr(value, "__index__"):
        return value.__index__()
    raise TypeError(f"expected an int, got {type(value).__name__}")


def _ints(values):
    if isinstance(values, (int,)) or hasattr(values, "__index__") and not isinstance(values, (list, tuple)):
        return [_index(values)]
    return [_index(v) for v in values]


def _operand(value):
    """What a native op takes: a handle, or a Python number."""
    if isinstance(value, Tensor):
        return value._h
    if isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, Element):
        return value.value
    if hasattr(value, "__index__"):
        return value.__index__()
    if hasattr(value, "__float__"):
        return float(value)
    raise TypeError(f"expected a pypto.Tensor or a number, got {type(value).__name__}")


# True while a kernel function runs (not while its module is imported): only then does
# Tensor(shape, dtype) create a tensor rather than describe an argument.
in_kernel_call = [False]


@contextlib.contextmanager
def kernel_running():
    """The scope of one run of a kernel function's body."""
    in_kernel_call[0] = True
    _loop_tensors.reset()
    try:
        yield
    finally:
        in_kernel_call[0] = False


_ids = itertools.count(1)


def _wrap(handle):
    t = object.__new__(Tensor)
    t._h = handle
    t._name = ""
    t._id = next(_ids)
    t._cache = None
    t._region = None
    t._declared = None
    return t


class Tensor:
    """A kernel tensor. As an annotation, `Tensor[...]`, `Tensor([], DT)` and `Tensor((4, 64), DT)`
    describe an argument; in a kernel body, `Tensor(shape, dtype)` creates a zero-filled one.
    Its methods are PyPTO's Tensor methods, each the module function of the same name."""

    # A view that holds only its valid part: _declared is its declared shape, _region
    # (tensor, shape, offsets) the whole view when it lies inside its tensor (whose bytes a
    # reinterpreting view, a reshape or a further view of it reads).
    __slots__ = ("_h", "_name", "_id", "_cache", "_region", "_declared")
    __hash__ = object.__hash__

    def __new__(cls, shape=None, dtype=None, name="", format=None, data_ptr=None, device=None, ori_shape=None):
        if shape is not None and dtype is not None and in_kernel_call[0] and _is_concrete(shape):
            shape = _ints(shape)
            t = _loop_tensors.made(shape, dtype, lambda: _wrap(_sim.full(shape, 0.0, sim_dtype(dtype))))
            t._name = name
            return t
        return TensorAnnotation(
            shape, dtype, name, TileOpFormat.TILEOP_ND if format is None else format, data_ptr, device, ori_shape
        )

    def __class_getitem__(cls, params):
        # As PyPTO reads `Tensor[...]`: a list or tuple is the shape, a DataType the dtype, a
        # TileOpFormat the format, a str the name, a dict any of them; anything else (`...`) nothing.
        if not isinstance(params, tuple):
            params = (params,)
        fields = {
            "shape": None,
            "dtype": None,
            "name": "",
            "format": TileOpFormat.TILEOP_ND,
            "data_ptr": None,
            "device": None,
            "ori_shape": None,
        }
        for param in params:
            if isinstance(param, dict):
                fields.update({k: v for k, v in param.items() if k in fields})
            elif isinstance(param, (list, tuple)):
                fields["shape"] = param
            elif isinstance(param, DataType):
                fields["dtype"] = param
            elif isinstance(param, TileOpFormat):
                fields["format"] = param
            elif isinstance(param, str):
                fields["name"] = param
        return TensorAnnotation(**fields)

    # --- properties ---
    @property
    def shape(self):
        return list(self._h.shape)

    @property
    def valid_shape(self):
        return list(self._h.shape)

    @property
    def dtype(self):
        return dtype_of(self._h.dtype)

    @property
    def dim(self):
        return len(self._h.shape)

    @property
    def id(self):
        return self._id

    @property
    def name(self):
        return self._name

    @name.setter
    def name(self, value):
        self._name = value

    @property
    def format(self):
        return TileOpFormat.TILEOP_ND

    def __len__(self):
        return self._h.shape[0]

    def __iter__(self):
        raise TypeError("Tensor is not iterable.")

    def __bool__(self):
        raise SimulatorError(
            "the truth of a tensor depends on its data, which a kernel cannot branch on; use pypto.where"
        )

    def __repr__(self):
        return f"pypto.Tensor(shape={self.shape}, dtype={self.dtype})"

    # --- indexing ---
    def __getitem__(self, key, *, valid_shape=None):
        if not isinstance(key, tuple):
            key = (key,)
        index = tuple(_index_key(k) for k in key)
        if len(index) == len(self._h.shape) and all(type(k) is int for k in index):
            return ScalarInt(_sim.element(self._h, index))
        return _wrap(_sim.getitem(self._h, index))

    def __setitem__(self, key, value):
        _ops._set_slice(self, key, value)

    # --- operators ---
    # As the module functions: operands narrowed to their valid part meet on it, and the result
    # keeps the declared shape (_ops._on_valid_part, _keep_declared).
    def __add__(self, other):
        return _ops._binary("add", self, other)

    def __radd__(self, other):
        return _ops._binary("add", other, self)

    def __sub__(self, other):
        return _ops._binary("sub", self, other)

    def __rsub__(self, other):
        return _ops._binary("sub", other, self)

    def __mul__(self, other):
        return _ops._binary("mul", self, other)

    def __rmul__(self, other):
        return _ops._binary("mul", other, self)

    def __truediv__(self, other):
        return _ops._binary("div", self, other)

    def __rtruediv__(self, other):
        return _ops._binary("div", other, self)

    def __floordiv__(self, other):
        return _ops._binary("floor_divide", self, other)

    def __rfloordiv__(self, other):
        return _ops._binary("floor_divide", other, self)

    def __mod__(self, other):
        return _ops._binary("remainder", self, other)

    def __rmod__(self, other):
        return _ops._binary("remainder", other, self)

    def __pow__(self, other):
        return _ops._binary("pow", self, other)

    def __rpow__(self, other):
        return _ops._binary("pow", other, self)

    def __and__(self, other):
        return _ops._binary("bitwise_and", self, other)

    def __or__(self, other):
        return _ops._binary("bitwise_or", self, other)

    def __xor__(self, other):
        return _ops._binary("bitwise_xor", self, other)

    def __invert__(self):
        return _ops._unary("bitwise_not", self)

    def __neg__(self):
        return _ops._unary("neg", self)

    def __pos__(self):
        return self

    def __abs__(self):
        return _ops._unary("abs", self)

    def __lt__(self, other):
        return _ops._compare("lt", self, other)

    def __le__(self, other):
        return _ops._compare("le", self, other)

    def __gt__(self, other):
        return _ops._compare("gt", self, other)

    def __ge__(self, other):
        return _ops._compare("ge", self, other)

    def __eq__(self, other):
        return _ops._compare("eq", self, other)

    def __ne__(self, other):
        return _ops._compare("ne", self, other)

    __iadd__ = __add__
    __isub__ = __sub__
    __imul__ = __mul__
    __itruediv__ = __truediv__

    def __matmul__(self, other):
        # As PyPTO: the product keeps a float operand's dtype; int8 accumulates to int32.
        if other.dtype in (DataType.DT_FP16, DataType.DT_BF16, DataType.DT_FP32):
            out_dtype = other.dtype
        elif other.dtype == DataType.DT_INT8:
            out_dtype = DataType.DT_INT32
        else:
            raise RuntimeError("unsupported dtype")
        return _ops.matmul(self, other, out_dtype)

    # --- PyPTO's Tensor methods (python/pypto/tensor.py), each the op of the same name ---
    def to_tensor(self, name=""):
        if name:
            self.name = name
        return self

    def is_empty(self):
        return any(d == 0 for d in self.shape)

    def copy(self, name=""):
        # A new tensor of the same shape and dtype, as in PyPTO; its data is not copied.
        t = _wrap(_sim.full(self.shape, 0.0, self._h.dtype))
        t._name = name or self._name
        return t

    def set_cache_policy(self, policy, value):
        self._cache = dict(self._cache or {}, **{policy.name: bool(value)})

    def get_cache_policy(self, policy):
        return (self._cache or {}).get(policy.name, False)

    def move(self, other):
        if not isinstance(other, Tensor):
            raise TypeError(f"'{type(other).__name__}' type cannot be moved to Tensor")
        _sim.copy_into(other._h, self._h)

    base = not_simulated("Tensor.base", "self", "data")
    logical_tensor = not_simulated("Tensor.logical_tensor", "self", "data")
    set_logical_tensor = not_simulated("Tensor.set_logical_tensor", "self, logical_tensor", "data")
    from_base = classmethod(not_simulated("Tensor.from_base", "cls, base", "data"))
    from_logical_tensor = classmethod(not_simulated("Tensor.from_logical_tensor", "cls, logical_tensor", "data"))

    def add(self, other):
        return _ops.add(self, other)

    def axpy_(self, x, alpha=1.0):
        return _ops.axpy_(self, x, alpha)

    def sub(self, other):
        return _ops.sub(self, other)

    def mul(self, other):
        return _ops.mul(self, other)

    def hypot(self, other):
        return _ops.hypot(self, other)

    def prelu(self, weight):
        return _ops.prelu(self, weight)

    def div(self, other, precision_type=PrecisionType.HIGH_PRECISION):
        return _ops.div(self, other, precision_type)

    def fmod(self, other, precision_type=PrecisionType.HIGH_PRECISION):
        return _ops.fmod(self, other, precision_type)

    def remainder(self, other, precision_type=PrecisionType.HIGH_PRECISION):
        return _ops.remainder(self, other, precision_type)

    def greater(self, other):
        return _ops.greater(self, other)

    def fill_(self, other):
        self.move(_ops.full(self.shape, other, self.dtype))
        return self

    def matmul(self, mat2, out_dtype, *, a_trans=False, b_trans=False, c_matrix_nz=False, extend_params=None):
        return _ops.matmul(
            self,
            mat2,
            out_dtype,
            a_trans=a_trans,
            b_trans=b_trans,
            c_matrix_nz=c_matrix_nz,
            extend_params=extend_params,
        )

    def assemble(self, input, offsets):
        _ops.assemble(input, offsets, self)

    def reshape(self, shape, *, valid_shape=None, inplace=False):
        return _ops.reshape(self, shape, valid_shape=valid_shape, inplace=inplace)

    def unsqueeze(self, dim):
        return _ops.unsqueeze(self, dim)

    def view(self, shape, offsets, *, valid_shape=None):
        return _ops.view(self, shape, offsets, valid_shape=valid_shape)

    def clone(self):
        return _ops.clone(self)

    def sin(self):
        return _ops.sin(self)

    def cos(self):
        return _ops.cos(self)

    def sinh(self):
        return _ops.sinh(self)

    def cosh(self):
        return _ops.cosh(self)

    def asinh(self):
        return _ops.asinh(self)

    def acosh(self):
        return _ops.acosh(self)

    def sigmoid(self):
        return _ops.sigmoid(self)

    def softmax(self, dim):
        return _ops.softmax(self, dim)

    def maximum(self, other):
        return _ops.maximum(self, other)

    # PyPTO's Tensor.where and Tensor.lrelu pass the tensor on as an extra first argument, which the
    # module functions do not take; they fail the same way here.
    def where(self, condition, x, y):
        return _ops.where(self, condition, x, y)

    def lrelu(self, other, negative_slope=0.01):
        return _ops.lrelu(self, other, negative_slope)

    def topk(self, k, dim=None, largest=True):
        return _ops.topk(self, k, dim, largest)

    def quant_mx(
        self, quant_dtype=DataType.DT_FP8E4M3, mode=DequantScaleRoundingMode.ROUND_DOWN, axis=-1, performance_mode=True
    ):
        return _ops.quant_mx(self, quant_dtype, mode, axis, performance_mode)

    def sort32(self, index=None):
        return _ops.sort32(self, index)

    def mrgsort(self, mergesize):
        return _ops.mrgsort(self, mergesize)

    def exp(self, precision_type=PrecisionType.INTRINSIC):
        return _ops.exp(self, precision_type)

    def sign(self):
        return _ops.sign(self)

    def signbit(self):
        return _ops.signbit(self)

    def tanh(self):
        return _ops.tanh(self)

    def exp2(self):
        return _ops.exp2(self)

    def expm1(self):
        return _ops.expm1(self)

    def erfc(self):
        return _ops.erfc(self)

    def log(self, precision_type=PrecisionType.INTRINSIC):
        return _ops.log(self, precision_type)

    def log1p(self):
        return _ops.log1p(self)

    def log10(self, precision_type=PrecisionType.INTRINSIC):
        return _ops.log10(self, precision_type)

    def log2(self, precision_type=PrecisionType.INTRINSIC):
        return _ops.log2(self, precision_type)

    def logical_not(self):
        return _ops.logical_not(self)

    def amax(self, dim, keepdim=False):
        return _ops.amax(self, dim, keepdim)

    def amin(self, dim, keepdim=False):
        return _ops.amin(self, dim, keepdim)

    def argmax(self, dim, keepdim=False):
        return _ops.argmax(self, dim, keepdim)

    def argmin(self, dim, keepdim=False):
        return _ops.argmin(self, dim, keepdim)

    def sum(self, dim, keepdim=False):
        return _ops.sum(self, dim, keepdim)

    def round(self, decimals=0):
        return _ops.round(self, decimals)

    def rsqrt(self, precision_type=PrecisionType.INTRINSIC):
        return _ops.rsqrt(self, precision_type)

    def sqrt(self, precision_type=PrecisionType.INTRINSIC):
        return _ops.sqrt(self, precision_type)

    def ceil(self):
        return _ops.ceil(self)

    def floor(self):
        return _ops.floor(self)

    def trunc(self):
        return _ops.trunc(self)

    def reciprocal(self, precision_type=PrecisionType.HIGH_PRECISION):
        return _ops.reciprocal(self, precision_type)

    def relu(self):
        return _ops.relu(self)

    def permute(self, perm):
        return _ops.permute(self, perm)

    def transpose(self, dim0, dim1):
        return _ops.transpose(self, dim0, dim1)

    def gather(self, dim, index):
        return _ops.gather(self, dim, index)

    def gathermask(self, pattern_mode):
        return _ops.gathermask(self, pattern_mode)

    def index_add_(self, dim, index, source, *, alpha=1):
        return _ops.index_add_(self, dim, index, source, alpha=alpha)

    def index_add(self, dim, index, source, *, alpha=1):
        return _ops.index_add(self, dim, index, source, alpha=alpha)

    def cumsum(self, dim):
        return _ops.cumsum(self, dim)

    def cumprod(self, dim):
        return _ops.cumprod(self, dim)

    def gcd(self, other):
        return _ops.gcd(self, other)

    def triu(self, diagonal=0):
        return _ops.triu(self, diagonal)

    def triu_(self, diagonal=0):
        self.move(_ops.triu(self, diagonal))
        return self

    def tril(self, diagonal=0):
        return _ops.tril(self, diagonal)

    def tril_(self, diagonal=0):
        self.move(_ops.tril(self, diagonal))
        return self

    def expand_clone(self, shape, *, valid_shape=None):
        return _ops.expand_clone(self, shape, valid_shape=valid_shape)

    def pad(self, pad, mode="constant", value=0):
        return _ops.pad(self, pad, mode, value)

    def fillpad(self, mode="constant", value=0):
        return _ops.fillpad(self, mode, value)

    def scatter_update(self, dim, index, src):
        return _ops.scatter_update(self, dim, index, src)

    def scatter_(self, dim, index, src, *, reduce=None):
        return _ops.scatter_(self, dim, index, src, reduce=reduce)

    def scatter(self, dim, index, src, *, reduce=None):
        return _ops.scatter(self, dim, index, src, reduce=reduce)

    def var(self, dim=None, *, correction=1, keepdim=False):
        return _ops.var(self, dim, correction=correction, keepdim=keepdim)


def _is_concrete(shape):
    try:
        _ints(shape)
        return True
    except (TypeError, ValueError):
        return False


def _index_key(k):
    if isinstance(k, slice):
        return slice(
            None if k.start is None else _index(k.start),
            None if k.stop is None else _index(k.stop),
            None if k.step is None else _index(k.step),
        )
    if k is Ellipsis or k is None:
        return k
    return _index(k)


from pypto import _ops  # noqa: E402 - the ops module needs Tensor; Tensor's methods call the ops
