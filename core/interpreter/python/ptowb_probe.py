"""Describes the Python interpreter that runs it, as one JSON line: its version, where its headers
are, and the torch it imports (version, ABI, headers, the libraries actually loaded), so that the
workbench can build and start the kernel worker for exactly this interpreter. Imports torch only:
pypto and torch_npu are looked up, never imported (a real torch_npu may need a device)."""
import importlib.util
import json
import os
import platform
import sys
import sysconfig

sys.path[:] = [p for p in sys.path if p and os.path.abspath(p) != os.path.dirname(os.path.abspath(__file__))]


def _distribution_version(name):
    try:
        from importlib import metadata

        return metadata.version(name)
    except Exception:
        return None


def _loaded_library_dir(stem):
    """The folder of the shared library named stem that this process has loaded."""
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                path = line.split()[-1]
                if os.path.basename(path).startswith(stem + ".so"):
                    return os.path.dirname(os.path.realpath(path))
    except OSError:
        pass
    return None


def _torch(info):
    try:
        import torch
    except BaseException as e:  # an import can fail with anything, even SystemExit
        info["torch_error"] = f"{type(e).__name__}: {e}"
        return
    info["torch"] = str(torch.__version__)
    folder = os.path.dirname(os.path.abspath(torch.__file__))
    info["torch_dir"] = folder
    info["cxx11_abi"] = bool(getattr(torch._C, "_GLIBCXX_USE_CXX11_ABI", True))
    info["torch_lib_dir"] = _loaded_library_dir("libc10") or os.path.join(folder, "lib")
    include = os.path.join(folder, "include")
    headers = []
    if os.path.isfile(os.path.join(include, "ATen", "ATen.h")):
        headers = [include, os.path.join(include, "torch", "csrc", "api", "include")]
    info["torch_include"] = headers


info = {
    "executable": sys.executable,
    "implementation": platform.python_implementation(),
    "python": platform.python_version(),
    "version_info": list(sys.version_info[:2]),
    "ext_suffix": sysconfig.get_config_var("EXT_SUFFIX") or "",
    "python_include": sysconfig.get_paths().get("include", ""),
    "pypto": _distribution_version("pypto") if importlib.util.find_spec("pypto") else None,
    "torch_npu": (_distribution_version("torch_npu") or "installed") if importlib.util.find_spec("torch_npu") else None,
}
_torch(info)
sys.stdout.write(json.dumps(info) + "\n")
