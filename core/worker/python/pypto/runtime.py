"""pypto.runtime: PyPTO's device runtime. The simulator runs every kernel call to its end before
it returns, so there is no device to start, stop or wait for: those calls do nothing."""
from pypto._control import set_verify_golden_data  # noqa: F401 - PyPTO exports it here too
from pypto._errors import not_simulated as _not_simulated


def _device_init():
    """Starts PyPTO's device; the simulator has none."""


def _device_fini():
    """Stops PyPTO's device; the simulator has none."""


def _device_synchronize():
    """Waits for the device's queued work: a simulated kernel call has finished when it returns."""


verify = _not_simulated("runtime.verify", "func, inputs, outputs, goldens, *args, **kwargs", "control")
set_verify_data = _not_simulated("runtime.set_verify_data", "goldens", "control")
