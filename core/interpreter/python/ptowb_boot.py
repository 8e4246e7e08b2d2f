"""Starts the kernel worker inside the chosen interpreter. The workbench runs it as
`PYTHON -E ptowb_boot.py MODULE REFERENCE_MODULE MEMORY_LIMIT_MB READY_JSON`: -E keeps PYTHONPATH and
PYTHONHOME out, and the folder of this file (the only one Python adds for a script) is taken off
the import path, so the import order is the standard library, then the interpreter's
site-packages; the worker's own modules (pypto, the torch_npu stand-in) come from the native
module, and the kernel's folder is added last, when a kernel is loaded."""
import json
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if p and os.path.abspath(p) != _here]


def _fail(message):
    sys.stdout.write(json.dumps({"status": "error", "code": "worker.python", "message": message}) + "\n")
    sys.stdout.flush()
    sys.exit(2)


def main():
    module_path, reference_module, memory_limit_mb, ready = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    # torch itself is imported by the kernel when it needs it (the launcher's probe saw that it
    # can be): the native module is linked to the very libraries that torch loads, from the
    # folder the probe found them in, so both share one copy.
    os.environ["PTOWB_REFERENCE_MODULE"] = reference_module
    import importlib.util

    spec = importlib.util.spec_from_file_location("_ptowb_worker", module_path)
    worker = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(worker)
    except ImportError as e:
        _fail(f"the kernel worker built for {sys.executable} does not load: {e}")
    sys.exit(worker.serve(ready, memory_limit_mb))


# A child that host code starts with multiprocessing's "spawn" runs this file again as
# `__mp_main__` before it unpickles its target: that child is no worker.
if __name__ == "__main__":
    main()
