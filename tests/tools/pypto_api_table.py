#!/usr/bin/python3
"""Writes the rows of core/kernel/pypto_api.cpp's table from the kernel worker's own `pypto`
module (its `api` request), so the table and the module cannot drift; tst_kernel checks that they
agree.

    tests/tools/pypto_api_table.py build/release/lib/ptowb/ptowb-kernel-worker
    tests/tools/pypto_api_table.py --source

With a worker, the worker answers the request. With --source, the request is answered here, by
the driver's own `api` handler over core/worker/python imported with a stand-in for the native
`_ptowb_sim` (the answer lists names and parameters only, which need no simulator).
"""
import json
import pathlib
import re
import subprocess
import sys
import types

ROOT = pathlib.Path(__file__).resolve().parents[2]

CATEGORIES = {
    "elementwise": "abs acos acosh add asin asinh atan atan2 atanh axpy_ bitwise_and bitwise_left_shift bitwise_not bitwise_or "
                   "bitwise_right_shift bitwise_xor cbrt ceil ceil_div clip copysign cos cosh div erf erfc exp exp2 expm1 floor "
                   "floor_div fmod gcd hypot isfinite isnan log log10 log1p log2 logical_and logical_not lrelu maximum minimum mul "
                   "neg pow prelu reciprocal relu remainder round rsqrt sigmoid sign signbit sin sinh sqrt sub tan tanh trunc "
                   "expand_exp_dif",
    "comparison": "eq ne lt le gt ge greater where",
    "reduction": "sum amax amin prod argmax argmin softmax var rms_norm cumsum cumprod topk argsort sort32 mrgsort "
                 "experimental.online_softmax experimental.online_softmax_update",
    "matmul": "matmul scaled_mm conv experimental.transposed_batchmatmul",
    "data": "cast view assemble atomic_add reshape clone unsqueeze permute transpose expand_clone concat gather gathermask "
            "index_select index_add index_add_ index_add_ub index_add__ub index_put_ scatter scatter_ scatter_update pad "
            "fillpad one_hot full zeros ones arange interleave deinterleave pack unpack triu tril convert_to_element "
            "quantize dequantize quant_mx uniform uniform_impl normal from_torch experimental.gather_in_l1 "
            "experimental.gather_in_ub experimental.nop experimental.shmem_load experimental.shmem_store",
    "control": "loop loop_unroll is_loop_begin is_loop_end cond function min max ceildiv check internal_check raise_error "
               "bytes_of set_vec_tile_shapes get_vec_tile_shapes set_cube_tile_shapes get_cube_tile_shapes frontend.jit "
               "frontend.function frontend.dynamic jit",
}
CATEGORY_OF = {name: cat for cat, names in CATEGORIES.items() for name in names.split()}


def strings(names):
    return "{" + ", ".join(f'"{n}"' for n in names) + "}"


def answer_from_source():
    """The driver's `api` answer, computed in this process over the source tree."""
    class SimulatorError(Exception):
        pass

    native = types.ModuleType("_ptowb_sim")
    native.SimulatorError = SimulatorError
    sys.modules["_ptowb_sim"] = native
    sys.dont_write_bytecode = True  # nothing written into the source tree
    sys.path.insert(0, str(ROOT / "core" / "worker" / "python"))
    import _ptowb_driver
    return _ptowb_driver._api({"op": "api"})


def main():
    if sys.argv[1:] == ["--source"]:
        answer = answer_from_source()
    else:
        out = subprocess.run([sys.argv[1]], input=json.dumps({"op": "api"}) + "\n", capture_output=True, text=True,
                             check=True).stdout
        # The worker greets first (progress while it is built, then ready); the answer follows.
        answer = next(a for a in map(json.loads, out.splitlines()) if a.get("status") not in ("progress", "ready"))
    rows = []
    for e in answer["api"]:
        rows.append(f'        {{"{e["name"]}", "{CATEGORY_OF.get(e["name"], "option")}", {strings(e["params"])}, {e["required"]}, '
                    f'{strings(e["keyword_only"])}, {str(e["variadic"]).lower()}, {str(e["var_keywords"]).lower()}, '
                    f'{str(e["simulated"]).lower()}}},')
    constants = [f'        "{c}",' for c in answer["constants"]]
    target = ROOT / "core" / "kernel" / "pypto_api.cpp"
    text = target.read_text()
    for what, lines in (("ROWS", rows), ("CONSTANTS", constants)):
        text = re.sub(rf"( *// BEGIN GENERATED {what}\n).*?( *// END GENERATED {what}\n)",
                      lambda m: m.group(1) + "\n".join(lines) + "\n" + m.group(2), text, flags=re.S)
    target.write_text(text)


if __name__ == "__main__":
    main()
