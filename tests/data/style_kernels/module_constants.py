"""Module-level constants and option dicts used by the decorator, star-args tiles."""
import os

import pypto

RUN_MODE = pypto.RunMode.SIM if os.environ.get("PTOWB_NEVER_SET") else pypto.RunMode.NPU
RUNTIME_OPTIONS = {"run_mode": RUN_MODE}
SCALE = 0.5
TILES = [8] * 2


@pypto.frontend.jit(runtime_options=RUNTIME_OPTIONS, pass_options={"enable_slice": True})
def kernel(x: pypto.Tensor([], pypto.DT_FP32), y: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(*TILES)
    y[:] = x * SCALE + 1.0


if __name__ == "__main__":
    raise SystemExit("the workbench imports this file; it never runs it as a script")
