"""The simulator's tensor: PyPTO's Tensor API over a handle to a libtorch tensor."""
import _ptowb_sim as _sim

from pypto._dtypes import DataType, dtype_of, sim_dtype


# An op the simulator cannot run as called; reported at the kernel line that called it.
SimulatorError = _sim.SimulatorError


class TensorAnnotation:
    """What `pypto.Tensor[...]` / `pypto.Tensor(shape, dtype)` say a kernel argument is."""

    def __init__(self, shape=None, dtype=None, name="", format=None, data_ptr=None, device=None, ori_shape=None):
        self.shape = shape
        self.dtype = dtype
        self.name = name


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
    if hasattr(value, "__index__"):
        return value.__index__()
    if hasattr(value, "__float__"):
        return float(value)
    raise TypeError(f"expected a pypto.Tensor or a number, got {type(value).__name__}")


# True while a kernel function runs (not while its module is imported): only then does
# Tensor(shape, dtype) create a tensor rather than describe an argument.
in_kernel_call = [False]


def _wrap(handle):
    t = object.__new__(Tensor)
    t._h = handle
    t._name = ""
    return t


class Tensor:
    """A kernel tensor. As an annotation, `Tensor[...]`, `Tensor([], DT)` and `Tensor((4, 64), DT)`
    describe an argument; in a kernel body, `Tensor(shape, dtype)` creates a zero-filled one."""

    __slots__ = ("_h", "_name")
    __hash__ = object.__hash__

    def __new__(cls, shape=None, dtype=None, name="", format=None, data_ptr=None, device=None, ori_shape=None):
        if shape is not None and dtype is not None and in_kernel_call[0] and _is_concrete(shape):
            t = object.__new__(cls)
            t._h = _sim.full(_ints(shape), 0.0, sim_dtype(dtype))
            t._name = name
            return t
        return TensorAnnotation(shape, dtype, name)

    def __class_getitem__(cls, params):
        if not isinstance(params, tuple):
            params = (params,)
        if params == (Ellipsis,):
            return TensorAnnotation()
        shape = params[0] if len(params) > 0 else None
        dtype = params[1] if len(params) > 1 else None
        return TensorAnnotation(shape, dtype)

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
    def name(self):
        return self._name

    @name.setter
    def name(self, value):
        self._name = value

    @property
    def format(self):
        return None

    def __len__(self):
        return self._h.shape[0]

    def __iter__(self):
        raise TypeError("Tensor is not iterable.")

    def __bool__(self):
        raise SimulatorError(
            "the truth of a tensor depends on its data, which a kernel cannot branch on; use pypto.where")

    def __repr__(self):
        return f"pypto.Tensor(shape={self.shape}, dtype={self.dtype})"

    # --- indexing ---
    def __getitem__(self, key, *, valid_shape=None):
        if not isinstance(key, tuple):
            key = (key,)
        return _wrap(_sim.getitem(self._h, tuple(_index_key(k) for k in key)))

    def __setitem__(self, key, value):
        from pypto import _ops
        _ops._set_slice(self, key, value)

    def move(self, other):
        _sim.copy_into(_operand(other), self._h)

    def assemble(self, input, offsets):
        _sim.assemble(input._h, _ints(offsets), self._h)

    # --- operators ---
    def __add__(self, other): return _wrap(_sim.binary("add", self._h, _operand(other)))
    def __radd__(self, other): return _wrap(_sim.binary("add", _operand(other), self._h))
    def __sub__(self, other): return _wrap(_sim.binary("sub", self._h, _operand(other)))
    def __rsub__(self, other): return _wrap(_sim.binary("sub", _operand(other), self._h))
    def __mul__(self, other): return _wrap(_sim.binary("mul", self._h, _operand(other)))
    def __rmul__(self, other): return _wrap(_sim.binary("mul", _operand(other), self._h))
    def __truediv__(self, other): return _wrap(_sim.binary("div", self._h, _operand(other)))
    def __rtruediv__(self, other): return _wrap(_sim.binary("div", _operand(other), self._h))
    def __floordiv__(self, other): return _wrap(_sim.binary("floor_divide", self._h, _operand(other)))
    def __rfloordiv__(self, other): return _wrap(_sim.binary("floor_divide", _operand(other), self._h))
    def __mod__(self, other): return _wrap(_sim.binary("remainder", self._h, _operand(other)))
    def __rmod__(self, other): return _wrap(_sim.binary("remainder", _operand(other), self._h))
    def __pow__(self, other): return _wrap(_sim.binary("pow", self._h, _operand(other)))
    def __rpow__(self, other): return _wrap(_sim.binary("pow", _operand(other), self._h))
    def __and__(self, other): return _wrap(_sim.binary("bitwise_and", self._h, _operand(other)))
    def __or__(self, other): return _wrap(_sim.binary("bitwise_or", self._h, _operand(other)))
    def __xor__(self, other): return _wrap(_sim.binary("bitwise_xor", self._h, _operand(other)))
    def __invert__(self): return _wrap(_sim.unary("bitwise_not", self._h))
    def __neg__(self): return _wrap(_sim.unary("neg", self._h))
    def __pos__(self): return self
    def __abs__(self): return _wrap(_sim.unary("abs", self._h))
    def __matmul__(self, other): return _wrap(_sim.matmul(self._h, other._h, self._h.dtype, False, False, None, None, None))
    def __lt__(self, other): return _wrap(_sim.compare("lt", self._h, _operand(other)))
    def __le__(self, other): return _wrap(_sim.compare("le", self._h, _operand(other)))
    def __gt__(self, other): return _wrap(_sim.compare("gt", self._h, _operand(other)))
    def __ge__(self, other): return _wrap(_sim.compare("ge", self._h, _operand(other)))
    def __eq__(self, other): return _wrap(_sim.compare("eq", self._h, _operand(other)))
    def __ne__(self, other): return _wrap(_sim.compare("ne", self._h, _operand(other)))
    __iadd__ = __add__
    __isub__ = __sub__
    __imul__ = __mul__
    __itruediv__ = __truediv__

    def __getattr__(self, name):
        # Tensor methods are the module's functions with the tensor first (x.exp(), x.sum(-1)).
        from pypto import _ops
        fn = _ops._tensor_method(name)
        if fn is None:
            raise AttributeError(f"'pypto.Tensor' object has no attribute '{name}'")
        return lambda *args, **kwargs: fn(self, *args, **kwargs)


def _is_concrete(shape):
    try:
        _ints(shape)
        return True
    except (TypeError, ValueError):
        return False


def _index_key(k):
    if isinstance(k, slice):
        return slice(None if k.start is None else _index(k.start), None if k.stop is None else _index(k.stop),
                     None if k.step is None else _index(k.step))
    if k is Ellipsis or k is None:
        return k
    return _index(k)
