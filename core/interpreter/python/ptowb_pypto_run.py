"""Runs one case of a kernel under the real PyPTO package (not the workbench's own `pypto`), in
the interpreter the user chose. The workbench runs it as `PYTHON -E ptowb_pypto_run.py
REQUEST.json` in the case folder, under its process reaper, with a time limit and capped logs;
the request names the kernel, its source (the bytes the workbench validated), the case's tensors
and values, the run mode and where the answer goes. PyPTO prints freely to stdout and stderr, so
the answer is a JSON file, written once at the end.

RunMode.SIM writes no output values: what it gives is PyPTO's CostModel output, written under
TILE_FWK_OUTPUT_DIR (set here to a folder inside the case folder), whose path the answer names.
RunMode.NPU runs the kernel on the device torch_npu gives (tensors moved with Tensor.npu()) and
writes the outputs, and the mutated inputs, back to the case's outputs/ folder."""
import json
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if p and os.path.abspath(p) != _here]


def _answer(path, answer):
    tmp = path + ".part"
    with open(tmp, "w") as f:
        json.dump(answer, f)
    os.replace(tmp, path)


def _limit_memory(megabytes):
    if megabytes <= 0:
        return
    try:
        import resource

        # As the kernel worker bounds itself (core/worker/kernel_worker.cpp): what it allocates,
        # and its address space only beyond what it has mapped now (torch's libraries).
        limit = megabytes << 20
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
        with open("/proc/self/statm") as statm:
            mapped = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        resource.setrlimit(resource.RLIMIT_AS, (mapped + limit, mapped + limit))
    except (ImportError, ValueError, OSError):
        pass


def _position(exc, path, fallback):
    """Where in the kernel file an exception belongs, as (line, col, end_line, end_col): the AST
    node PyPTO's parser blames (its line numbers are the file's), else the innermost frame in the
    kernel file, else the kernel function's first line."""
    import traceback

    node = getattr(exc, "node", None)
    if getattr(node, "lineno", None):
        col = getattr(node, "col_offset", 0) + 1
        return (
            node.lineno,
            col,
            getattr(node, "end_lineno", None) or node.lineno,
            (getattr(node, "end_col_offset", None) or col - 1) + 1,
        )
    if isinstance(exc, SyntaxError) and exc.filename == path and exc.lineno:
        return exc.lineno, exc.offset or 1, exc.lineno, exc.offset or 1
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == path]
    if frames:
        f = frames[-1]
        return f.lineno, (f.colno or 0) + 1, f.end_lineno or f.lineno, (f.end_colno or f.colno or 0) + 1
    return fallback, 1, fallback, 1


def _message(exc):
    text = str(exc).strip()
    if getattr(exc, "node", None) is not None and text:  # PyPTO's parser: its message is the news
        return text
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _load(path, source):
    import linecache
    import types

    # Last on the path: the kernel's own modules are found, never in place of an installed one.
    folder = os.path.dirname(path)
    if folder not in sys.path:
        sys.path.append(folder)
    # PyPTO's frontend reads the jit function's source through linecache: give it these bytes.
    linecache.cache[path] = (len(source), None, source.splitlines(True), path)
    name = os.path.splitext(os.path.basename(path))[0]
    module = types.ModuleType(name)
    module.__file__ = path
    sys.modules[name] = module
    sys.argv = [path]
    exec(compile(source, path, "exec"), module.__dict__)
    return module


def _tensor(torch, numpy, path, dtype):
    array = numpy.load(path, allow_pickle=False)
    if dtype == "bfloat16":  # stored as raw bits
        return torch.from_numpy(array.view(numpy.int16).copy()).view(torch.bfloat16)
    return torch.from_numpy(array.copy())


def _value(pypto, value, module):
    if isinstance(value, dict) and set(value) == {"dtype"}:
        return _pypto_dtype(pypto, value["dtype"])
    if isinstance(value, dict) and "class" in value:
        target = vars(module).get(value["class"])
        if not isinstance(target, type):
            raise ValueError(f"the kernel file has no class '{value['class']}' (op.json names it)")
        return target(**{k: _value(pypto, v, module) for k, v in value.get("fields", {}).items()})
    # A literal: {"dict": [[key, value], ...]} is the dict, in lists too, as in the simulator.
    return (sys.modules.get("_ptowb_kernel_maker") or _support("_ptowb_kernel_maker")).literal_value(value)


_DTYPES = {
    "float16": "DT_FP16",
    "float32": "DT_FP32",
    "bfloat16": "DT_BF16",
    "int8": "DT_INT8",
    "int16": "DT_INT16",
    "int32": "DT_INT32",
    "int64": "DT_INT64",
    "uint8": "DT_UINT8",
    "bool": "DT_BOOL",
    "float64": "DT_DOUBLE",
}


def _pypto_dtype(pypto, name):
    return getattr(pypto, _DTYPES.get(name, name))


def _save(numpy, torch, path, tensor):
    tensor = tensor.cpu().contiguous()
    if tensor.dtype == torch.bfloat16:  # stored as raw bits
        array = tensor.view(torch.int16).numpy().view(numpy.uint16)
    else:
        array = tensor.numpy()
    tmp = path + ".part.npy"
    numpy.save(tmp, array)
    os.replace(tmp, path)


def _call(request, module, pypto, torch, numpy):
    import inspect

    case_dir = request["case_dir"]
    fn = _kernel(module, request)
    # The kernel runs in the mode asked for, whatever its decorator or the environment says.
    options = getattr(fn, "_runtime_options", None)
    if isinstance(options, dict):
        options["run_mode"] = getattr(pypto.RunMode, request["run_mode"].upper()).value
    original = getattr(fn, "_original_func", fn)
    tensors = {}
    for name in request["inputs"]:
        shape = request["input_shapes"].get(name, {})
        tensors[name] = _tensor(torch, numpy, os.path.join(case_dir, "inputs", name + ".npy"), shape.get("dtype", ""))
    for out in request["outputs"]:
        # What op.json says an output holds before the call (its "init"), else zeros.
        tensors[out["name"]] = torch.full(out["shape"], float(out.get("init", 0)), dtype=getattr(torch, out["dtype"]))
    npu = request["run_mode"] == "npu"
    if npu:
        tensors = {name: t.npu() for name, t in tensors.items()}
    # PyPTO takes the tensors by position, in the signature's order, and the rest by name.
    positional, named = [], {}
    values = dict(request.get("params", {}))
    values.update({k: _value(pypto, v, module) for k, v in request.get("arguments", {}).items()})
    for name, param in inspect.signature(original).parameters.items():
        if name in tensors:
            positional.append(tensors[name])
        elif name in values:
            named[name] = values[name]
    fn(*positional, **named)
    if npu:
        folder = os.path.join(case_dir, "outputs")
        os.makedirs(folder, exist_ok=True)
        for name in [o["name"] for o in request["outputs"]] + list(request.get("mutated", [])):
            _save(numpy, torch, os.path.join(folder, name + ".npy"), tensors[name])


def _support(name):
    """One of the workbench's modules copied beside this driver (its folder is off sys.path)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, os.path.join(_here, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _kernel(module, request):
    """The jit kernel: the file's function, or the one kernel.made_by builds inside a function."""
    if request.get("made_by"):
        import pypto
        from pypto.frontend.parser.entry import JitCallableWrapper

        maker = _support("_ptowb_kernel_maker")

        made_with = request.get("made_with") or {}
        arguments = {k: _value(pypto, v, module) for k, v in made_with.items()} if made_with else None
        return maker.make_kernel(module, request["made_by"], request["function"], [JitCallableWrapper], arguments)
    fn = getattr(module, request["function"], None)
    if fn is None:
        raise LookupError(f"the kernel file defines no function '{request['function']}'")
    return fn


def _newest_output(root):
    runs = [os.path.join(root, d) for d in os.listdir(root) if d.startswith("output_")]
    return max(runs, key=os.path.getmtime) if runs else ""


def main():
    with open(sys.argv[1]) as f:
        request = json.load(f)
    result = request["result_file"]
    _limit_memory(int(request.get("memory_limit_mb", 0)))
    output_root = request["output_dir"]
    os.makedirs(output_root, exist_ok=True)
    os.environ["TILE_FWK_OUTPUT_DIR"] = output_root
    if request["run_mode"] == "sim":
        # Without CANN PyPTO loads no device runtime; SIM needs none.
        os.environ.pop("ASCEND_HOME_PATH", None)
    import importlib.util

    if importlib.util.find_spec("pypto") is None:
        _answer(
            result,
            {
                "status": "error",
                "code": "pypto.missing",
                "message": f"the Python interpreter {sys.executable} has no pypto package "
                f"(pip install pypto into it, or choose one that has it)",
            },
        )
        return 3
    try:
        import numpy
        import torch
        import pypto
        from importlib import metadata

        version = metadata.version("pypto")
    except BaseException as exc:  # an import can fail with anything
        _answer(
            result,
            {
                "status": "error",
                "code": "pypto.import",
                "message": f"pypto does not import in {sys.executable}: {_message(exc)}",
            },
        )
        return 3
    if request["run_mode"] == "npu":
        try:
            import torch_npu  # noqa: F401  (registers the device with torch)

            available = torch.npu.is_available()
        except BaseException as exc:
            _answer(
                result,
                {
                    "status": "error",
                    "code": "pypto.npu",
                    "message": f"torch_npu does not import in {sys.executable}: {_message(exc)}",
                },
            )
            return 3
        if not available:
            _answer(
                result,
                {
                    "status": "error",
                    "code": "pypto.npu",
                    "message": f"torch_npu in {sys.executable} sees no NPU device",
                },
            )
            return 3
    elif request.get("made_by"):
        # The host code of the function that makes the kernel, written for the NPU (`import
        # torch_npu`, `torch.randn(..., device="npu:0")`), runs on the CPU under SIM, as in the
        # kernel worker; a real torch_npu is used untouched. Only then: with the stand-in in place
        # PyPTO 0.2.0 itself simulates some fp16 kernels differently (other cycle counts).
        _support("_ptowb_npu_quant")  # the stand-in imports it, and this folder is off sys.path
        _support("_ptowb_npu_standin").install()
    path = request["kernel_file"]
    line = 1
    try:
        module = _load(path, request["source"])
        fn = getattr(module, request["function"], None)
        original = getattr(fn, "_original_func", fn)
        line = getattr(getattr(original, "__code__", None), "co_firstlineno", 1)
        _call(request, module, pypto, torch, numpy)
    except BaseException as exc:
        at, col, end_line, end_col = _position(exc, path, line)
        _answer(
            result,
            {
                "status": "error",
                "code": "pypto.rejected",
                "pypto": version,
                "message": f"PyPTO {version}: {_message(exc)}",
                "line": at,
                "col": col,
                "end_line": end_line,
                "end_col": end_col,
            },
        )
        return 1
    _answer(result, {"status": "ok", "pypto": version, "output": _newest_output(output_root)})
    return 0


_code = main()
# PyPTO 0.2.0 can corrupt its heap while the interpreter tears down (an abort after the answer is
# written, seen with fp16 kernels): leave without running its teardown.
sys.stdout.flush()
sys.stderr.flush()
os._exit(_code)
