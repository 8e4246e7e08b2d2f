"""Dynamic dims: `frontend.dynamic(name)` and `pypto.DYNAMIC`. A symbolic scalar binds to the
case's size when a kernel's annotations are matched, then behaves as that int."""
import builtins

from pypto._enums import StatusType


class SymbolicScalar:
    def __init__(self, name="", value=None):
        # PyPTO's overloads: (), (name), (value: int), (name, value); `symbolic_scalar(True)`
        # is the int 1, as pybind passes a bool for an int.
        if isinstance(name, int) and value is None:
            name, value = "", int(name)
        self.name = name
        self.value = value

    def _v(self):
        if self.value is None:
            raise ValueError(
                f"the dynamic dim '{self.name}' has no value yet: it binds when a kernel argument "
                "annotated with it is passed"
            )
        return self.value

    def __index__(self):
        return self._v()

    def __int__(self):
        return self._v()

    def __float__(self):
        return float(self._v())

    def __bool__(self):
        return bool(self._v())

    def __hash__(self):
        return id(self)

    def __repr__(self):
        return f"SymbolicScalar({self.name}={self.value})"

    @property
    def min(self):
        return self._v()

    @property
    def max(self):
        return self._v()

    def concrete(self):
        return self._v()

    def as_variable(self):
        return None


def _arith(name):
    def forward(self, other):
        return getattr(int(self), name)(int(other) if isinstance(other, SymbolicScalar) else other)

    return forward


for _name in (
    "__add__",
    "__radd__",
    "__sub__",
    "__rsub__",
    "__mul__",
    "__rmul__",
    "__floordiv__",
    "__rfloordiv__",
    "__truediv__",
    "__rtruediv__",
    "__mod__",
    "__rmod__",
    "__pow__",
    "__lt__",
    "__le__",
    "__gt__",
    "__ge__",
    "__eq__",
    "__ne__",
    "__neg__",
    "__abs__",
):
    if _name in ("__neg__", "__abs__"):
        setattr(SymbolicScalar, _name, (lambda n: lambda self: getattr(int(self), n)())(_name))
    else:
        setattr(SymbolicScalar, _name, _arith(_name))


class ScalarInt(int):
    """A concrete value where PyPTO has a symbolic scalar (loop indices, dynamic dims): an int
    with SymbolicScalar's methods; arithmetic keeps the type, and `/` divides as integers."""

    def min(self, other):
        return ScalarInt(builtins.min(int(self), int(other)))

    def max(self, other):
        return ScalarInt(builtins.max(int(self), int(other)))

    def concrete(self):
        return int(self)

    def as_variable(self):
        """PyPTO makes the expression a variable of the code it generates; a concrete value has
        nothing to make."""
        return None

    def __truediv__(self, other):
        if isinstance(other, float):
            return int(self) / other
        q = abs(int(self)) // abs(int(other))
        return ScalarInt(q if (int(self) < 0) == (int(other) < 0) else -q)

    def __rtruediv__(self, other):
        if isinstance(other, float):
            return other / int(self)
        return ScalarInt(int(other)).__truediv__(self)


def _keep(name):
    def op(self, *args):
        result = getattr(int, name)(self, *args)
        return ScalarInt(result) if type(result) is int else result

    return op


for _name in (
    "__add__",
    "__radd__",
    "__sub__",
    "__rsub__",
    "__mul__",
    "__rmul__",
    "__floordiv__",
    "__rfloordiv__",
    "__mod__",
    "__rmod__",
    "__neg__",
    "__abs__",
    "__pos__",
):
    setattr(ScalarInt, _name, _keep(_name))


# `pypto.DYNAMIC` / `pypto.DYN` / `pypto.STATIC` in a shape annotation: a dim of any size.
DYNAMIC = StatusType.DYNAMIC
DYN = StatusType.DYN
STATIC = StatusType.STATIC
SymInt = int
