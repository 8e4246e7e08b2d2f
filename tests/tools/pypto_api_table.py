#!/usr/bin/python3
"""Writes the rows of core/kernel/pypto_api.cpp's table from the kernel worker's own `pypto`
module (its `api` request), so the table and the module cannot drift; tst_kernel checks that they
agree. Usage: tests/tools/pypto_api_table.py build/release/lib/ptowb/ptowb-kernel-worker"""
import json
import pathlib
import re
import subprocess
import sys

CATEGORIES = {
    "elementwise": "abs acos acosh add asin asinh atan atan2 atanh axpy_ bitwise_and bitwise_left_shift bitwise_not bitwise_or "
                   "bitwise_right_shift bitwise_xor cbrt ceil ceil_div clip copysign cos cosh div erf erfc exp exp2 expm1 floor "
                   "floor_div fmod gcd hypot isfinite isnan log log10 log1p log2 logical_and logical_not lrelu maximum minimum mul "
                   "neg pow prelu reciprocal relu remainder round rsqrt sigmoid sign signbit sin sinh sqrt sub tan tanh trunc",
    "comparison": "eq ne lt le gt ge greater where",
    "reduction": "sum amax amin prod argmax argmin softmax var rms_norm cumsum cumprod topk argsort",
    "matmul": "matmul scaled_mm conv",
    "data": "cast view assemble reshape clone unsqueeze permute transpose expand_clone concat gather index_select scatter "
            "scatter_ scatter_update pad one_hot full zeros ones arange",
    "control": "loop loop_unroll is_loop_begin is_loop_end cond min max ceildiv set_vec_tile_shapes get_vec_tile_shapes "
               "set_cube_tile_shapes get_cube_tile_shapes frontend.jit frontend.function frontend.dynamic jit",
}
CATEGORY_OF = {name: cat for cat, names in CATEGORIES.items() for name in names.split()}


def strings(names):
    return "{" + ", ".join(f'"{n}"' for n in names) + "}"


def main():
    answer = json.loads(subprocess.run([sys.argv[1]], input=json.dumps({"op": "api"}) + "\n", capture_output=True, text=True,
                                       check=True).stdout)
    rows = []
    for e in answer["api"]:
        rows.append(f'        {{"{e["name"]}", "{CATEGORY_OF.get(e["name"], "option")}", {strings(e["params"])}, {e["required"]}, '
                    f'{strings(e["keyword_only"])}, {str(e["variadic"]).lower()}, {str(e["var_keywords"]).lower()}, '
                    f'{str(e["simulated"]).lower()}}},')
    constants = [f'        "{c}",' for c in answer["constants"]]
    target = pathlib.Path(__file__).resolve().parents[2] / "core" / "kernel" / "pypto_api.cpp"
    text = target.read_text()
    for what, lines in (("ROWS", rows), ("CONSTANTS", constants)):
        text = re.sub(rf"( *// BEGIN GENERATED {what}\n).*?( *// END GENERATED {what}\n)",
                      lambda m: m.group(1) + "\n".join(lines) + "\n" + m.group(2), text, flags=re.S)
    target.write_text(text)


if __name__ == "__main__":
    main()
