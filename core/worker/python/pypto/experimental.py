"""pypto.experimental: options accepted and recorded; the simulator needs none of them."""
from pypto._control import _recorder


def __getattr__(name):
    if name.startswith("set_"):
        return _recorder("experimental." + name)
    raise AttributeError(f"module 'pypto.experimental' has no attribute '{name}'")
