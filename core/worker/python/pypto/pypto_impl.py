"""pypto.pypto_impl: PyPTO's compiled core (its IR, its C++ operations, its runtime and logging).
The simulator runs none of it, so the module imports and any name in it says so when called:
"not supported by the simulator: pypto.pypto_impl.ScalarDivS" at the calling line."""
from pypto._errors import SimulatorError, not_simulated_message


class _NotSimulated:
    """A name of the compiled core, or a name inside one (`pypto_impl.ir.create_op_call`)."""

    def __init__(self, name):
        self._name = name

    def __call__(self, *args, **kwargs):
        raise SimulatorError(not_simulated_message(self._name))

    def __getattr__(self, attribute):
        if attribute.startswith("_"):  # a private name is a probe (hasattr, a marker), not a core name
            raise AttributeError(attribute)
        return _NotSimulated(f"{self._name}.{attribute}")

    def __repr__(self):
        return f"<pypto.{self._name}: not simulated>"


def __getattr__(name):
    if name.startswith("_"):
        raise AttributeError(name)
    return _NotSimulated(f"pypto_impl.{name}")
