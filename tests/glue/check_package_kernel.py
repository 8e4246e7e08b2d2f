"""Runs an exported package's kernel through the package's own Python module, as a user of the
package would.

    check_package_kernel.py PACKAGE_DIR sim         every case under Backend('sim') equals its golden
    check_package_kernel.py PACKAGE_DIR pypto-sim   every case runs under PyPTO in RunMode.SIM

'sim' runs the kernel in ptowb's simulator (the worker PTOWB_KERNEL_WORKER names, given the
package's kernel file). 'pypto-sim' takes the path Backend('device') takes — the kernel file
imported, jitted by PyPTO and called as PyPTO takes its arguments — with PyPTO's cost model in
place of a device: the outputs keep their shapes and hold no values. Prints one line per check
and 'N passed, M failed'.
"""
import json
import os
import sys
import traceback

from glue_checks import check, check_backend_against_goldens, finish, load_tensor

PACKAGE, MODE = sys.argv[1], sys.argv[2]
MANIFEST = json.load(open(os.path.join(PACKAGE, "manifest.json")))
sys.path.insert(0, os.path.join(PACKAGE, "python"))
module = __import__(MANIFEST["namespace"] + "_" + MANIFEST["name"])
if MODE == "sim":
    check_backend_against_goldens(module, PACKAGE, "sim", "ptowb's simulator")
else:
    for case in json.load(open(os.path.join(PACKAGE, "tests", "cases.json")))["cases"]:
        named = {name: load_tensor(PACKAGE, entry) for name, entry in case["inputs"].items()}
        named.update(json.load(open(os.path.join(PACKAGE, case["parameters"]))))
        goldens = [load_tensor(PACKAGE, entry) for entry in case["outputs"].values()]
        expected = [(list(g.shape), g.dtype) for g in goldens]
        try:
            produced = module._pt_run_with_pypto("sim", named, expected, {})
            check(
                "PyPTO runs the package's kernel: " + case["name"],
                [(list(p.shape), p.dtype) for p in produced] == expected,
                str(produced),
            )
        except Exception:
            check("PyPTO runs the package's kernel: " + case["name"], False, traceback.format_exc())
finish()
