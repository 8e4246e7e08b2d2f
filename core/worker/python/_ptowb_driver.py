"""The kernel worker's driver: imports kernel.py as ordinary Python (once per edit), binds one
case's tensors and parameters to the kernel's parameters by name, runs it, and reports any
failure at its kernel line with the traceback filtered to the kernel file."""
import inspect
import io
import linecache
import os
import signal
import sys
import traceback
import types
import weakref

import _ptowb_kernel_maker as _kernel_maker
import _ptowb_sim as _sim
import pypto
from pypto._dtypes import PACKED_IN_UINT8, DataType, dtype_of
from pypto._errors import not_simulated_message
from pypto._symbolic import DYNAMIC, STATIC, SymbolicScalar
from pypto._tensor import SimulatorError, TensorAnnotation, _wrap, kernel_running
from pypto.frontend import JitFunction

import _ptowb_npu_standin

_ptowb_npu_standin.install()  # where no real torch_npu imports, a CPU stand-in does, before any kernel


class Interrupted(BaseException):
    """Raised at the running line when the workbench stops the kernel (timeout or Cancel)."""


def _interrupt(signum, frame):
    raise Interrupted("the kernel was stopped")


signal.signal(signal.SIGUSR1, _interrupt)

_loaded = {}  # kernel path -> (source, module)


class KernelError(Exception):
    def __init__(self, message, line=1, col=1, code="kernel.bind"):
        super().__init__(message)
        self.line, self.col, self.code = line, col, code


def _forget_project_modules(folder):
    for name, mod in list(sys.modules.items()):
        path = getattr(mod, "__file__", None) or ""
        if path.startswith(folder + os.sep):
            del sys.modules[name]


def package_root(folder, limit=16):
    """The folder a file of `folder` is imported from: `folder` itself, or, when it is a package
    (it holds __init__.py), the first folder above it that is not one, as pytest finds it."""
    root = folder
    for _ in range(limit):
        if not os.path.isfile(os.path.join(root, "__init__.py")):
            return root
        parent = os.path.dirname(root)
        if parent == root:
            return root
        root = parent
    return folder


def dotted_name(path, root=None):
    """The module name a file has when imported from its package root (`kirin.common_abs`)."""
    root = root or package_root(os.path.dirname(os.path.abspath(path)))
    relative = os.path.relpath(os.path.splitext(os.path.abspath(path))[0], root)
    return relative.replace(os.sep, ".")


def _load(path, source):
    cached = _loaded.get(path)
    if cached and cached[0] == source:
        return cached[1]
    folder = os.path.dirname(os.path.abspath(path))
    root = package_root(folder)
    _forget_project_modules(root)
    # Last on the path: the kernel's own modules are found, but a project file named like a
    # standard or installed module (re.py, inspect.py, torch.py) never shadows it. A file of a
    # package imports its siblings through the package (`from kirin.common import ...`).
    for where in (folder, root):
        if where not in sys.path:
            sys.path.append(where)
    linecache.cache[path] = (len(source), None, source.splitlines(True), path)
    name = os.path.splitext(os.path.basename(path))[0]
    module = types.ModuleType(name)
    module.__file__ = path
    sys.argv = [path]
    code = compile(source, path, "exec")
    sys.modules[name] = module
    # Test files that import it through its package get this module, not a second copy.
    dotted = dotted_name(path, root)
    if dotted != name:
        sys.modules[dotted] = module
        # Its relative imports (`from .common import x`) resolve in its package.
        module.__package__ = dotted.rpartition(".")[0]
    exec(code, module.__dict__)
    _loaded[path] = (source, module)
    return module


def _kernel_function(module, name, path, made_by="", made_with=None):
    if made_by:
        return _made_kernel(module, name, made_by, made_with)
    if not hasattr(module, name):
        raise KernelError(f"the kernel file defines no function '{name}'", 1, 1, "kernel.missing-function")
    fn = getattr(module, name)
    while isinstance(fn, JitFunction):
        fn = fn.fn
    if not callable(fn):
        raise KernelError(f"'{name}' in the kernel file is not a function", 1, 1, "kernel.missing-function")
    return fn


DEVICE_VARIABLE = "TILE_FWK_DEVICE_ID"
# Kernels built by kernel.made_by, per loaded kernel module: an edit loads a new module, which
# builds them again; the old one's go with it.
_made_kernels = weakref.WeakKeyDictionary()


def default_device():
    """Host code as PyPTO's examples write it picks its device from TILE_FWK_DEVICE_ID and stops
    without one; "npu:0" is the CPU under the torch_npu stand-in. Returns the value it had."""
    saved = os.environ.get(DEVICE_VARIABLE)
    os.environ.setdefault(DEVICE_VARIABLE, "0")
    return saved


def _made_kernel(module, name, made_by, made_with=None):
    """The kernel `made_by` builds, made once per load of the file (a new edit makes it again);
    `made_with` gives a factory its arguments (op.json's kernel.made_with)."""
    made = _made_kernels.setdefault(module, {})
    key = (made_by, name, repr(made_with))
    if key not in made:
        saved = default_device()
        try:
            arguments = (
                {k: _argument(module, k, v, 1, f"kernel.made_with '{k}'") for k, v in made_with.items()}
                if made_with
                else None
            )
            made[key] = _kernel_maker.make_kernel(module, made_by, name, [JitFunction], arguments)
        except _kernel_maker.KernelMakerError as exc:
            raise KernelError(str(exc), exc.line, 1, "kernel.made-by") from None
        finally:
            if saved is None:
                os.environ.pop(DEVICE_VARIABLE, None)
    return _kernel_maker.kernel_function(made[key])


def _annotation(fn, param):
    ann = param.annotation
    if isinstance(ann, str):
        try:
            ann = eval(ann, fn.__globals__)
        except Exception:
            return None
    return ann


def _is_status_shape(shape):
    """Whether an annotation's shape is what PyPTO calls a status shape (Tensor's
    _validate_status_shape): a list of pypto.STATIC / pypto.DYNAMIC markers and ints, not all ints.
    Its length is the least rank a tensor may have (jit's check is `len(tensor.shape) < len(shape)`,
    entry.py): `[pypto.STATIC, pypto.STATIC]` takes a [1, 1, 512] tensor, its ints are checked from
    the first dim."""
    if not isinstance(shape, list) or all(isinstance(d, int) for d in shape):
        return False
    return all(d is DYNAMIC or d is STATIC or (isinstance(d, int) and not isinstance(d, bool)) for d in shape)


def _check_tensor(name, ann, tensor, line, bound):
    if not isinstance(ann, TensorAnnotation):
        return
    if ann.dtype in PACKED_IN_UINT8 and tensor.dtype == DataType.DT_UINT8:
        # PyPTO takes the bytes as they are; what the simulator lacks is the arithmetic.
        raise KernelError(
            f"kernel parameter '{name}' is annotated {ann.dtype!r}, whose data PyPTO takes in a uint8 tensor: "
            + not_simulated_message(ann.dtype.name),
            line,
            code="sim.unsupported",
        )
    if ann.dtype is not None and ann.dtype != tensor.dtype:
        raise KernelError(
            f"kernel parameter '{name}' is annotated {ann.dtype!r}, but the case passes {tensor.dtype!r}", line
        )
    shape = ann.shape
    if shape is None or not isinstance(shape, (list, tuple)) or len(shape) == 0:
        return
    actual = tensor.shape
    dims = list(shape)
    # Identity, not ==: a symbolic dim compares by its value, which it does not have yet.
    ellipsis = next((k for k, d in enumerate(dims) if d is Ellipsis), None)
    if ellipsis is not None:
        fixed = [d for d in dims if d is not Ellipsis]
        if len(actual) < len(fixed):
            raise KernelError(
                f"kernel parameter '{name}' is annotated with at least {len(fixed)} dims, but the case passes {actual}",
                line,
            )
        head = ellipsis
        pairs = list(zip(dims[:head], actual[:head])) + list(zip(reversed(dims[head + 1 :]), reversed(actual)))
    else:
        status = _is_status_shape(shape)
        if len(dims) != len(actual) and not (status and len(actual) > len(dims)):
            least = "at least " if status else ""
            raise KernelError(
                f"kernel parameter '{name}' is annotated with {least}{len(dims)} dims, "
                f"but the case passes shape {actual}",
                line,
            )
        pairs = list(zip(dims, actual))
    for want, got in pairs:
        if want is DYNAMIC or want is STATIC or want is None:
            continue
        if isinstance(want, SymbolicScalar):
            if id(want) in bound and want.value != got:
                raise KernelError(
                    f"the dynamic dim '{want.name}' is {want.value} for one argument and {got} for '{name}'", line
                )
            want.value = got
            bound[id(want)] = want
        elif isinstance(want, int) and want != got:
            raise KernelError(
                f"kernel parameter '{name}' is annotated with shape {list(shape)}, but the case passes {actual}", line
            )


def _argument_value(value):
    """A kernel argument's value as op.json's rules gave it: a dtype arrives as {"dtype": name}."""
    if isinstance(value, dict) and set(value) == {"dtype"}:
        return dtype_of(value["dtype"])
    return _kernel_maker.literal_value(value)


def _project_module(value, folder):
    path = getattr(value, "__file__", None) if isinstance(value, types.ModuleType) else None
    return bool(path) and os.path.abspath(path).startswith(folder + os.sep)


def _name_start(module, spelled, folder):
    """Where a dotted "class" name starts: the kernel file's namespace when it binds the first
    part, else the project module it names that is already loaded (`m.Config` when the kernel
    file did `from m import f`, or `from .m import f` in a package: loading `m` bound no name).
    Returns (namespace owner, rest)."""
    parts = spelled.split(".")
    if parts[0] in vars(module):
        return module, parts
    # A module of the kernel file's own package is named from it (`bsa_common.BSAConfig` for the
    # kernel's `from .bsa_common import ...`), else from the top.
    package = getattr(module, "__package__", None)
    prefixes = ([package + "."] if package else []) + [""]
    for cut in range(len(parts) - 1, 0, -1):
        for prefix in prefixes:
            loaded = sys.modules.get(prefix + ".".join(parts[:cut]))
            if loaded is not None and _project_module(loaded, folder):
                return loaded, parts[cut:]
    return None, parts


def _found_class(module, start, parts, folder):
    """The class op.json's "class" names: defined in the kernel file, or in a module of the
    project (the kernel file's folder) that the kernel file itself imported. Looked up in
    namespaces only (no attribute hooks run, nothing is imported), never through builtins or
    other packages. `parts` are read from `start` on (_name_start); None when they lead
    elsewhere."""
    target = start
    for part in parts:
        namespace = vars(target) if isinstance(target, (types.ModuleType, type)) else {}
        if part not in namespace:
            return None
        target = namespace[part]
        if not (target is module or _project_module(target, folder) or isinstance(target, type)):
            return None
    if not isinstance(target, type):
        return None
    home = sys.modules.get(getattr(target, "__module__", ""))
    return target if home is module or _project_module(home, folder) else None


def _argument(module, name, value, line, what=None):
    """One entry of op.json's kernel "arguments" (or of kernel.made_with, `what` naming it): a
    value, or an instance of a class of the kernel file built from its fields (found by name
    lookup: nothing is evaluated)."""
    what = what or f"kernel argument '{name}'"
    if not (isinstance(value, dict) and "class" in value):
        return _argument_value(value)
    folder = os.path.dirname(os.path.abspath(module.__file__))
    start, parts = _name_start(module, value["class"], folder)
    if start is None:
        raise KernelError(f"{what}: the kernel file has no class '{value['class']}' (op.json names it)", line)
    target = _found_class(module, start, parts, folder)
    if target is None:
        raise KernelError(
            f"{what}: '{value['class']}' is not a class defined in the kernel file "
            "or in a module of the project it imports (op.json names it)",
            line,
        )
    fields = {field: _argument_value(v) for field, v in value.get("fields", {}).items()}
    try:
        return target(**fields)
    except TypeError as exc:
        raise KernelError(f"{what}: {value['class']}(...) does not take op.json's fields: {exc}", line) from None


def _bind(fn, inputs, outputs, params, arguments=None, module=None):
    signature = inspect.signature(fn)
    line = fn.__code__.co_firstlineno
    kwargs, bound = {}, {}
    arguments = arguments or {}
    for name, param in signature.parameters.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        if name in inputs or name in outputs:
            tensor = _wrap(inputs[name] if name in inputs else outputs[name])
            _check_tensor(name, _annotation(fn, param), tensor, line, bound)
            kwargs[name] = tensor
        elif name in params:
            kwargs[name] = params[name]
        elif name in arguments:
            kwargs[name] = _argument(module, name, arguments[name], line)
        elif param.default is inspect.Parameter.empty:
            raise KernelError(
                f"kernel parameter '{name}' binds to no input, output, parameter or kernel argument of op.json", line
            )
    unused = [n for n in arguments if n not in signature.parameters]
    if unused:
        raise KernelError(
            f"the kernel takes no parameter named {', '.join(repr(n) for n in unused)} "
            "(op.json's kernel arguments name it)",
            line,
        )
    missing = [n for n in list(inputs) + list(outputs) if n not in signature.parameters]
    if missing and not any(p.kind == p.VAR_KEYWORD for p in signature.parameters.values()):
        raise KernelError(
            f"the kernel takes no parameter named {', '.join(repr(m) for m in missing)} (op.json names it)", line
        )
    return kwargs


def _position(exc, path):
    if isinstance(exc, KernelError):
        return exc.line, exc.col, exc.line, exc.col
    if isinstance(exc, SyntaxError) and exc.filename == path:
        return exc.lineno or 1, exc.offset or 1, exc.end_lineno or exc.lineno or 1, exc.end_offset or exc.offset or 1
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == path]
    if not frames:
        return 1, 1, 1, 1
    f = frames[-1]
    col = (f.colno or 0) + 1
    return f.lineno, col, f.end_lineno or f.lineno, (f.end_colno or f.colno or 0) + 1


def _message(exc):
    if isinstance(exc, (SimulatorError, KernelError, Interrupted)) or type(exc).__name__ == "SimulatorError":
        return str(exc)
    return f"{type(exc).__name__}: {exc}"


def _kernel_traceback(exc, path):
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == path]
    lines = [f"{os.path.basename(path)}:{f.lineno}: in {f.name}\n    {(f.line or '').strip()}" for f in frames]
    return "\n".join(lines + [_message(exc)])


class _Log(io.TextIOBase):
    """The kernel's print output, kept as its first and last MiB (in native code, the same cap as a
    runner's logs): a kernel printing gigabytes costs neither memory nor a huge answer."""

    def __init__(self):
        super().__init__()
        self._text = _sim.CappedText()

    def writable(self):
        return True

    def write(self, s):
        if not isinstance(s, str):
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        # In pieces: a string of gigabytes is not copied whole to be encoded.
        for start in range(0, len(s), 1 << 20):
            self._text.append(s[start : start + (1 << 20)].encode("utf-8", "backslashreplace"))
        return len(s)

    def getvalue(self):
        return self._text.text().decode("utf-8", "replace")


def run(path, source, function, inputs, outputs, params, arguments=None, made_by="", made_with=None):
    log = _Log()
    saved = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = log
    try:
        module = _load(path, source)
        fn = _kernel_function(module, function, path, made_by, made_with)
        kwargs = _bind(fn, inputs, outputs, params, arguments, module)
        with kernel_running():
            fn(**kwargs)
        return {"ok": True, "log": log.getvalue()}
    except BaseException as exc:  # noqa: B902 - every failure of user code is a case error
        line, col, end_line, end_col = _position(exc, path)
        code = getattr(exc, "code", None)
        if not isinstance(code, str):
            code = (
                "kernel.interrupted"
                if isinstance(exc, Interrupted)
                else "sim.error"
                if isinstance(exc, SimulatorError)
                else "kernel.python"
            )
        return {
            "ok": False,
            "log": log.getvalue(),
            "message": _message(exc),
            "code": code,
            "line": line,
            "col": col,
            "end_line": end_line,
            "end_col": end_col,
            "traceback": _kernel_traceback(exc, path),
        }
    finally:
        sys.stdout, sys.stderr = saved


def _syntax(request):
    """Parses kernel text as Python without running any of it."""
    import ast

    try:
        ast.parse(request["source"], request.get("file", "kernel.py"))
    except SyntaxError as exc:
        return {
            "status": "error",
            "code": "kernel.syntax",
            "message": f"{exc.msg}",
            "line": exc.lineno or 1,
            "col": exc.offset or 1,
            "end_line": exc.end_lineno or exc.lineno or 1,
            "end_col": exc.end_offset or exc.offset or 1,
        }
    except (ValueError, RecursionError, MemoryError) as exc:
        return {
            "status": "error",
            "code": "kernel.syntax",
            "message": str(exc) or type(exc).__name__,
            "line": 1,
            "col": 1,
        }
    return {"status": "ok"}


def _api(request):
    """Every public callable of the workbench's pypto with its parameters, for the API table's test."""
    entries, constants = [], []
    for module, prefix in ((pypto, ""), (pypto.frontend, "frontend."), (pypto.experimental, "experimental.")):
        for name in sorted(dir(module)):
            value = getattr(module, name)
            if name.startswith("_") or isinstance(value, types.ModuleType):
                continue
            if not callable(value) or isinstance(value, type):
                constants.append(prefix + name)
                continue
            if getattr(value, "__module__", "").split(".")[0] != "pypto":
                continue
            entry = {
                "name": prefix + name,
                "category": value._ptowb_category,
                "params": [],
                "required": 0,
                "keyword_only": [],
                "variadic": False,
                "var_keywords": False,
                "simulated": not getattr(value, "_ptowb_unsupported", False),
            }
            for p in inspect.signature(value).parameters.values():
                if p.kind == p.VAR_POSITIONAL:
                    entry["variadic"] = True
                elif p.kind == p.VAR_KEYWORD:
                    entry["var_keywords"] = True
                elif p.kind == p.KEYWORD_ONLY:
                    entry["keyword_only"].append(p.name)
                else:
                    entry["params"].append(p.name)
                    entry["required"] += p.default is inspect.Parameter.empty
            entries.append(entry)
    return {"status": "ok", "api": entries, "constants": constants}


def request(line):
    import json

    req = json.loads(line)
    handlers = {"syntax": _syntax, "api": _api}
    handler = handlers.get(req.get("op"))
    if handler is None:
        return json.dumps(
            {
                "status": "error",
                "code": "sim.worker",
                "message": f"unknown request {req.get('op')!r}",
                "line": 1,
                "col": 1,
            }
        )
    return json.dumps(handler(req))
