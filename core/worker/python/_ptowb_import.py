"""Import's recording: runs a kernel file's own host and test code (its `__main__` block, then its
test functions and test classes, pytest parametrizations expanded) with the workbench's pypto and
records every call of its jit kernels: the arguments (tensors kept as .npy), what the kernel
wrote, the golden functions of the file called with the kernel's inputs, and the tolerances the
file compares with. Running the file is the user's explicit, trusted act (File ▸ Import Kernel,
`ptowb-cli import`); the answer is data for the C++ side, which builds the project from it."""
import ast
import contextlib
import dataclasses
import collections
import enum
import functools
import importlib
import importlib.util
import inspect
import linecache
import math
import os
import signal
import sys
import threading
import time
import types
import weakref

import _ptowb_driver as _driver
import _ptowb_import_expected as _expected
import _ptowb_import_literal as _literal
import _ptowb_import_memo as _memo
import _ptowb_import_tests as _files
import _ptowb_kernel_maker as _kernel_maker
from _ptowb_import_expr import (
    contradicts as _contradicts,
    draws_random as _draws_random,
    Slicer as _Slicer,
    Unresolved as _Unresolved,
    compared_operands as _compared_operands,
    ALLCLOSE_NAMES as _ALLCLOSE_NAMES,
    difference_bound as _difference_bound,
    flat_values as _flat_values,
    golden_list_nodes as _golden_list_nodes,
    is_tensor as _is_tensor,
    torch_module as _torch,
    verdict_discarded as _verdict_discarded,
)
from _ptowb_import_source import annotated_source as _annotated_source
import _ptowb_sim as _sim
from pypto._dtypes import DataType
from pypto._tensor import TensorAnnotation, _wrap, in_kernel_call, kernel_running
from pypto.frontend import JitFunction

# NumPy dtypes that torch spells the same way.
NUMPY_DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64")
PARAMETER_KINDS = ("int", "float", "bool", "str", "int[]", "float[]")  # scalars op.json takes as parameters
MAX_CALLS_PER_KERNEL = 6  # distinct calls kept per kernel (each becomes a case)
MAX_REPEATS = 2  # calls kept of a signature already kept, while no output of it was compared
MAX_PENDING_GOLDENS = 8  # golden calls made before the kernel call they belong to
MAX_ASSIGNMENT_TRIES = 8  # assignments of a compared name tried, the latest first, for one that ran
FILLS = {
    "randn": "normal(0, 1)",
    "rand": "uniform(0, 1)",
    "zeros": "zeros",
    "ones": "ones",
    "empty": "empty",
    "zeros_like": "zeros",
    "ones_like": "ones",
    "empty_like": "empty",
    "randn_like": "normal(0, 1)",
    "rand_like": "uniform(0, 1)",
}

# Tensor methods that give a (torch.empty) buffer its values in place: `l[rows] = part` fills an
# input piece by piece as well as `uniform_` does at once.
IN_PLACE_INITIALISERS = (
    "__setitem__",
    "index_put_",
    "index_copy_",
    "index_fill_",
    "masked_fill_",
    "masked_scatter_",
    "scatter_",
    "uniform_",
    "normal_",
    "random_",
    "fill_",
    "copy_",
    "bernoulli_",
    "exponential_",
    "geometric_",
    "log_normal_",
    "cauchy_",
)


class _Enough(Exception):
    """Stops an entry point once its kernel has all the calls import keeps."""


class _TimeUp(BaseException):
    """Stops the entry point running when import's time is up (a BaseException, so that the file's
    own `except Exception` does not swallow it); what it recorded before is kept."""


@contextlib.contextmanager
def _stopped_at(deadline):
    """Raises _TimeUp in the code running at `deadline` (the main thread's interval timer: the
    worker runs requests there; elsewhere nothing is stopped)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def time_up(signum, frame):
        raise _TimeUp()

    previous = signal.signal(signal.SIGALRM, time_up)
    signal.setitimer(signal.ITIMER_REAL, max(deadline - time.monotonic(), 0.001))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _layout(tensor):
    """Storage, shape, strides and dtype: equal for a tensor and a view of all of it."""
    try:
        return tensor.data_ptr(), tuple(tensor.shape), tuple(tensor.stride()), tensor.dtype
    except Exception:  # noqa: BLE001 - a tensor with no storage has no layout
        return None


def _dtype_name(tensor):
    return str(tensor.dtype).replace("torch.", "")


def _host_bytes(tensor):
    t = tensor.detach().cpu().contiguous()
    if t.numel() == 0:
        return b""
    torch = _torch()
    return t.reshape(-1).view(torch.uint8).numpy().tobytes()


def _copy_back(tensor, data):
    if tensor.numel() == 0:
        return
    torch = _torch()
    flat = torch.frombuffer(bytearray(data), dtype=torch.uint8).view(tensor.dtype).reshape(tensor.shape)
    with torch.no_grad():
        tensor.copy_(flat.to(tensor.device))


PASS_VERIFY_TOLERANCE = (1e-3, 1e-3)  # PyPTO's verify_options pass_verify_error_tol default


def _pass_verify_tolerance(jit):
    """(rtol, atol) of PyPTO's pass verification for a call of `jit`: its verify_options, else
    pypto.set_verify_options, else PyPTO's default."""
    pypto_module = sys.modules.get("pypto")
    given = [((getattr(jit, "options", None) or {}).get("verify_options") or {}).get("pass_verify_error_tol")]
    if pypto_module is not None and hasattr(pypto_module, "get_verify_options"):
        given.append((pypto_module.get_verify_options() or {}).get("pass_verify_error_tol"))
    for tol in given:
        if (
            isinstance(tol, (list, tuple))
            and len(tol) == 2
            and all(isinstance(t, (int, float)) and not isinstance(t, bool) and 0 <= t < math.inf for t in tol)
        ):
            return float(tol[0]), float(tol[1])
    return PASS_VERIFY_TOLERANCE


def _scalar(value):
    """A JSON description of a non-tensor argument, or None when import cannot carry it."""
    if isinstance(value, bool):
        return {"kind": "bool", "value": value}
    if isinstance(value, int):
        return {"kind": "int", "value": value}
    if isinstance(value, float):
        return {"kind": "float", "value": value if math.isfinite(value) else repr(value)}
    if isinstance(value, str):
        return {"kind": "str", "value": value}
    if isinstance(value, DataType):
        return {"kind": "dtype", "value": value.value}
    if _torch() is not None and isinstance(value, _torch().dtype):
        return {"kind": "dtype", "value": str(value).replace("torch.", "")}
    if isinstance(value, enum.Enum):
        return {"kind": "enum", "value": f"{type(value).__name__}.{value.name}"}
    if isinstance(value, (list, tuple)) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return {"kind": "int[]", "value": list(value)}
    if isinstance(value, (list, tuple)) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        return {"kind": "float[]", "value": [float(v) for v in value]}
    nested = _nested_literal(value)
    if nested is not None:
        return {"kind": "literal", "value": nested}
    return None


MAX_LITERAL_ITEMS = 65536  # as op.json takes a literal kernel argument


def _nested_literal(value, ellipsis=False):
    """Lists, tuples and dicts of numbers, strings, booleans and lists of them (`((128, 128), (64,
    64))`, a config's `{2: 4}`) as JSON, which op.json's kernel arguments take as is (a dict as
    {"dict": [[key, value], ...]}); None for anything else. With `ellipsis`, `...` is "..."
    (kernel.made_with's spelling of PyPTO's any-rank shape `[...]`)."""
    if not isinstance(value, (list, tuple, dict)):
        return None
    count = 0

    def convert(v, depth):
        nonlocal count
        count += 1
        if count > MAX_LITERAL_ITEMS or depth > 64:
            raise ValueError
        if isinstance(v, (bool, int, str)) or (isinstance(v, float) and math.isfinite(v)):
            return v
        if ellipsis and v is Ellipsis:
            return _kernel_maker.ELLIPSIS
        if isinstance(v, (list, tuple)):
            return [convert(item, depth + 1) for item in v]
        if isinstance(v, dict) and type(v) is dict:
            keys = [k for k in v if isinstance(k, (bool, int, str)) or (isinstance(k, float) and math.isfinite(k))]
            if len(keys) != len(v):
                raise ValueError
            return {"dict": [[k, convert(item, depth + 1)] for k, item in v.items()]}
        raise ValueError

    try:
        return convert(value, 0)
    except ValueError:
        return None


def _annotation(fn, param):
    ann = _driver._annotation(fn, param)
    if not isinstance(ann, TensorAnnotation):
        return None
    dims = None
    if isinstance(ann.shape, (list, tuple)) and len(ann.shape) and all(d is not Ellipsis for d in ann.shape):
        dims = [d if isinstance(d, int) and not isinstance(d, bool) else None for d in ann.shape]
    return {"dtype": ann.dtype.value if isinstance(ann.dtype, DataType) else None, "dims": dims}


class Recorder:
    def __init__(self, path, source, out_dir, seconds):
        self.kernel_path, self.kernel_source, self.out_dir = path, source, out_dir
        # The file whose host code runs now: the kernel file, then a test file beside it.
        self.path, self.source = path, source
        self.seconds = seconds
        self.not_run = []  # entry points left out when import's time was up
        self.loaded_state = {}  # kernel -> _read_state as the file is written
        self.deadline = time.monotonic() + seconds
        self.folder = os.path.dirname(os.path.abspath(path))
        self.calls, self.errors, self.goldens, self.compares = [], [], [], []
        self.golden_results = {}  # id(tensor) -> [(golden, its result entry)] that returned it
        self.entry = ""  # the entry point running now
        self.keep = {}  # id -> every host object whose id is recorded: kept alive, found by id
        self.fills = {}  # id(tensor) -> fill of a torch factory's result
        self.input_calls = {}  # id(host tensor) -> {call index: parameter}, every call it was an input of
        self.outputs = {}  # id(host tensor) -> (call index, parameter), written by the kernel
        # How many live outputs have each element count: a subtraction in the host code (every
        # `Tensor.__sub__` while outputs exist) asks whether an operand may be a copy of one.
        self.output_sizes = collections.Counter()
        self.output_size_of = {}  # id(host tensor) -> its element count, as counted above
        self.signatures = {}  # kernel -> distinct call signatures kept
        # A signature's first call, and its repeats: a test may compare the output of a later call
        # of the same shapes only (the first one's output feeds the second).
        self.first_calls = {}  # signature -> index of its first call
        self.repeats = {}  # signature -> indices of its repeats
        self.active = False
        self.reading = False  # a comparison of the file's is being read
        self.module = None  # the file, once loaded
        self.tree = None  # the host file's syntax tree, parsed when a comparison needs it
        self.kernel_tree = None
        # Golden calls that touched no kernel tensor yet: tests often compute the expected value
        # first and then call the kernel with the same tensors.
        self.pending_goldens = []
        self.pending_verify = None  # (goldens, where they are written) for the next kernel call
        self.overwrite_checked = set()  # kernels whose written tensors were checked for it
        self.memo = _memo.CallMemo(_expected.MAX_SAVED_BYTES)  # calls on the same arguments
        self.launches = 0  # kernel calls so far, recorded or not
        self.made_functions = {}  # name -> function of a kernel built inside a function
        self.scalars = {}  # call index -> [(parameter, value)] of its non-tensor arguments
        self.factories = {}  # id(jit kernel) -> (code of the kernel file's function that made it, its arguments)
        # (function, args, kwargs) of the hooked functions running now, innermost last: a factory's
        # arguments as it was called, before its body rebinds them (`b = pypto.DYNAMIC`).
        self.entered = []
        # (kernel, made_by, made_with) -> ids of the jit kernels it called, in order: the one
        # op.json's made_by gives again is the first; a later one (a main block building the
        # kernel again for other shapes) is another kernel.
        self.made_kernels = {}
        # call index -> {parameter: its values before the call} of the tensors the call wrote that
        # held values: a test's clone of them (`cache_out = cache.clone()`) is that input as it was.
        self.before_values = {}

    def hold(self, value):
        self.keep[id(value)] = value

    def kept(self, oid):
        """The host object recorded by `oid`, None once it is gone (see let_go)."""
        value = self.keep.get(oid)
        return value() if isinstance(value, weakref.ref) else value

    def let_go(self):
        """At a test's end, the tensors only its own locals held go: a file whose tests each build
        caches of hundreds of MiB would otherwise keep every test's in memory to its end. A tensor
        that lives on (a module's, a fixture's) is still found by id; one that goes is forgotten
        everywhere before its id can name another. Other objects (kernels, configs) stay held."""
        # A test's clone of an input, and the goldens it gave before its kernel call (computed,
        # or set for pass verification), are that test's.
        self.before_values.clear()
        self.pending_goldens = []
        self.pending_verify = None
        for oid, value in list(self.keep.items()):
            if _is_tensor(value):
                self.keep[oid] = weakref.ref(value, functools.partial(self._forget, oid))

    def _forget(self, oid, _gone):
        self.keep.pop(oid, None)
        self.fills.pop(oid, None)
        self.input_calls.pop(oid, None)
        self._drop_output(oid)
        for _, r in self.golden_results.pop(oid, ()):
            r["id"] = None  # (the recording drops the ids once all tests ran)

    def _note_output(self, host, where):
        """`host` holds what the kernel wrote to a parameter: `where` is (call index, parameter)."""
        oid = id(host)
        if oid not in self.output_size_of:
            self.output_size_of[oid] = host.numel() if _is_tensor(host) else None
            self.output_sizes[self.output_size_of[oid]] += 1
        self.outputs[oid] = where

    def _drop_output(self, oid):
        self.outputs.pop(oid, None)
        if oid in self.output_size_of:
            size = self.output_size_of.pop(oid)
            self.output_sizes[size] -= 1
            if not self.output_sizes[size]:
                del self.output_sizes[size]

    def golden_of(self, tensor):
        """The first golden call that returned `tensor`, None if none did."""
        found = self.golden_results.get(id(tensor))
        return found[0][0] if found else None

    def host(self, path, source):
        self.path, self.source, self.tree = path, source, None

    # -- kernels ---------------------------------------------------------------------------------
    def kernel_call(self, jit, args, kwargs):
        recorded = len(self.calls)
        try:
            return self._record_call(jit, args, kwargs)
        except _TimeUp:
            # Stopped part-way, a call is no case: its outputs may not all be written.
            for call in self.calls[recorded:]:
                call["stopped"] = True
            raise

    def _record_call(self, jit, args, kwargs):
        self.launches += 1
        fn = jit.fn
        while isinstance(fn, JitFunction):
            fn = fn.fn
        name = fn.__name__
        if not self._module_level(jit, name):
            self.made_functions.setdefault(name, fn)
        self._check_state(name, fn)
        try:
            bound = inspect.signature(fn).bind(*args, **kwargs)
        except TypeError as exc:
            raise TypeError(f"{name}(): {exc}") from None
        before, described = {}, []
        for pname, value in bound.arguments.items():
            param = inspect.signature(fn).parameters[pname]
            entry = {"name": pname}
            if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                entry["kind"] = "variadic"
            elif _is_tensor(value):
                before[pname] = _host_bytes(value)
                entry.update(kind="tensor", shape=list(value.shape), dtype=_dtype_name(value))
                fill = self.fills.get(id(value))
                if fill:
                    entry["fill"] = fill
            elif dataclasses.is_dataclass(value) and not isinstance(value, type):
                entry.update(
                    kind="config",
                    **{"class": _class_spelling(type(value), fn.__globals__)},
                    module=getattr(sys.modules.get(type(value).__module__), "__file__", "") or "",
                )
                fields = {}
                for f in dataclasses.fields(value):
                    described_field = _scalar(getattr(value, f.name))
                    is_default = _is_default(f, getattr(value, f.name))
                    fields[f.name] = dict(
                        described_field or {"kind": "other", "type": type(getattr(value, f.name)).__name__},
                        default=is_default,
                    )
                entry["fields"] = fields
            else:
                entry.update(_scalar(value) or {"kind": "other", "type": type(value).__name__})
            described.append(entry)
        key = (
            name,
            repr([(e["name"], e.get("shape"), e.get("dtype"), e.get("value"), e.get("fields")) for e in described]),
        )
        kept = self.signatures.setdefault(name, set())
        record = key not in kept and len(kept) < MAX_CALLS_PER_KERNEL
        repeat_of = None
        if key in kept and self._repeat_wanted(key):
            record, repeat_of = True, self.first_calls[key]
        # A call on the very arguments of an earlier one (a benchmark loop calling the kernel ten
        # times before the test compares the last output) takes its results (_ptowb_import_memo).
        memo_key = self.memo.key(fn, key, described, before)
        same_as, remembered = self.memo.results(memo_key)
        handles = _sim_handles(bound, before) if remembered is None or record else {}
        index = len(self.calls)
        module_level = self._module_level(jit, name)
        made_by, made_with = (None, None) if module_level else (self._maker(), None)
        if not module_level and made_by is None:
            made_by, made_with = self._factory(jit, name)
        call = {
            "kernel": name,
            "line": fn.__code__.co_firstlineno,
            "module_level": module_level,
            "made_by": made_by,
            "entry": self.entry,
            "args": described,
            "saved": record,
        }
        if made_by is not None:
            made = self.made_kernels.setdefault((name, made_by, repr(made_with)), [])
            if id(jit) not in made:
                made.append(id(jit))
                self.hold(jit)
            call["made_again"] = made.index(id(jit))
        if made_with is not None:
            call["made_with"] = made_with
        if record:
            if repeat_of is None:
                kept.add(key)
                self.first_calls[key] = index
            else:
                call["repeat_of"] = repeat_of
                self.repeats.setdefault(key, []).append(index)
            self.calls.append(call)
            # Those that become op parameters (a dtype or a config is a kernel argument).
            self.scalars[index] = [
                (p, v)
                for p, v in bound.arguments.items()
                if not _is_tensor(v) and (_scalar(v) or {}).get("kind") in PARAMETER_KINDS
            ]
            for _, v in self.scalars[index]:
                self.hold(v)
            for entry in described:
                if entry.get("kind") == "tensor":
                    size = len(before[entry["name"]])
                    if size <= _expected.MAX_SAVED_BYTES:
                        target = os.path.join(self.out_dir, f"call{index}_{entry['name']}.npy")
                        problem = _sim.save_npy(handles[entry["name"]], target)
                        if not problem:
                            entry["file"] = target
        kwargs_in = {}
        for pname, value in bound.arguments.items():
            kwargs_in[pname] = _wrap(handles[pname]) if pname in handles else value
        try:
            if remembered is None:
                with kernel_running():
                    _check_annotations(fn, {p: kwargs_in[p] for p in handles})
                    fn(**kwargs_in)
        except BaseException as exc:  # noqa: B902 - the kernel's failure is recorded, then the host code sees it
            if record and not isinstance(exc, _TimeUp):
                line, col, _, _ = _driver._position(exc, self.kernel_path)
                call["error"] = {"message": _driver._message(exc), "line": line, "col": col}
                if isinstance(exc, _driver.KernelError) and exc.code == "kernel.bind":
                    call["error"]["rejected"] = True  # before the body ran
            raise
        afters = {}
        for entry in described:
            if entry.get("kind") != "tensor":
                continue
            host = bound.arguments[entry["name"]]
            if remembered is not None:
                after = afters[entry["name"]] = remembered.get(entry["name"], before[entry["name"]])
                entry["written"] = entry["name"] in remembered
            else:
                after = afters[entry["name"]] = _sim.to_bytes(handles[entry["name"]])
                entry["written"] = after != before[entry["name"]]
            if entry["written"]:
                if record and entry.get("fill") != "empty" and len(before[entry["name"]]) <= _expected.MAX_SAVED_BYTES:
                    torch = _torch()
                    held = torch.frombuffer(bytearray(before[entry["name"]]), dtype=torch.uint8)
                    self.before_values.setdefault(index, {})[entry["name"]] = held.view(host.dtype).reshape(host.shape)
                _copy_back(host, after)
                # Written, the buffer holds values now: passed to a later kernel it is an input.
                self.fills.pop(id(host), None)
            self.hold(host)
            if record:
                if entry["written"] or entry.get("fill") == "empty":
                    self._note_output(host, (index, entry["name"]))
                else:
                    self.input_calls.setdefault(id(host), {})[index] = entry["name"]
        if remembered is None:
            written = {e["name"]: afters[e["name"]] for e in described if e.get("written")}
            same_as = self.memo.ran(memo_key, fn, index if record else None, written)
        if not record and same_as is not None:
            # The same call as a recorded one: a comparison of its outputs is that call's.
            for e in described:
                if e.get("written"):
                    self._note_output(bound.arguments[e["name"]], (same_as, e["name"]))
        if record and name not in self.overwrite_checked:
            self.overwrite_checked.add(name)
            self._check_overwritten(fn, bound, before, afters, described, index)
        if record:
            waiting, self.pending_goldens = self.pending_goldens, []
            for golden in waiting:
                self.golden_call(*golden)
        if self.pending_verify is not None:
            if record:
                self._verify_compares(index, bound, _pass_verify_tolerance(jit))
            self.pending_verify = None
        if not record and self._enough():
            raise _Enough()

    def _check_state(self, name, fn):
        """Warns, once per kernel, of a value the kernel reads that the host code changed after the
        file loaded (`MatmulQuantConfig.scale_value = scale_input` before the call): the project
        runs the file as it is written, so its cases would compute with the file's value."""
        loaded = self.loaded_state.pop(name, None)
        if not loaded:
            return
        now = _read_state(fn)
        changed = [
            (key, was)
            for key, was in sorted(loaded.items())
            if key in now and now[key] != was and now[key] == now[key]  # NaN is not a change
        ]
        if not changed:
            return
        found = self._test_function()
        said = ", ".join(f"{key} = {now[key]!r} (the file has {was!r})" for key, was in changed)
        self.errors.append(
            {
                "file": self.path,
                "entry": self.entry,
                "line": found[1] if found else 1,
                "col": 1,
                "message": f"set {said} before calling {name}, which reads it: the project runs the file "
                "as it is written, so its cases compute with the file's value; write the value the "
                "test uses into the file, or pass it to the kernel as an argument",
            }
        )

    def _check_overwritten(self, fn, bound, before, afters, described, index):
        """Marks the written tensors that held values before the call (`torch.rand`, not
        `torch.empty`) `overwritten` when the kernel's result does not depend on what they held:
        the kernel runs again with them holding NaN (integers: other values), the rest as before.
        Such a tensor is an output; one whose result changes is an input the kernel updates.
        When the call wrote nothing, a `torch.zeros` tensor may be an output the kernel wrote
        zeros into (`a == b` false everywhere): the same run tells, and makes it one. A written
        `torch.zeros` output is marked `keeps_zeros` when the kernel leaves some of it as it was
        (a padded matmul result): the case starts it at zero too."""
        torch = _torch()
        tensors = [e for e in described if e.get("kind") == "tensor"]
        unwritten = not any(e.get("written") for e in tensors)
        candidates = [
            e
            for e in tensors
            if (e.get("written") and e.get("fill") != "empty") or (unwritten and e.get("fill") == "zeros")
        ]
        if torch is None or not candidates:
            return
        results = self._run_poisoned(fn, bound, before, {e["name"] for e in candidates})
        if results is None:
            return
        if len(candidates) > 1:
            # Poisoned together, one tensor's result may change for another's contents: an output
            # copied from a cache input that the kernel updates in place (`kv_cache_out[:] =
            # scatter_update(kv_cache, ...)`). Each that changed runs again, poisoned alone (a
            # written `torch.zeros` output needs not: it starts at zero either way).
            for e in candidates:
                if results[e["name"]] == afters[e["name"]] or (e.get("written") and e.get("fill") == "zeros"):
                    continue
                alone = self._run_poisoned(fn, bound, before, {e["name"]})
                if alone is None:
                    return
                results[e["name"]] = alone[e["name"]]
        for e in candidates:
            same = results[e["name"]] == afters[e["name"]]
            if e.get("written") and e.get("fill") == "zeros":
                e["keeps_zeros"] = not same
                continue
            e["overwritten"] = same
            if e["overwritten"] and not e.get("written"):
                e["written"] = True
                host = bound.arguments[e["name"]]
                self.input_calls.get(id(host), {}).pop(index, None)
                self._note_output(host, (index, e["name"]))

    @staticmethod
    def _run_poisoned(fn, bound, before, names):
        """The kernel's results (bytes by tensor name) when the tensors `names` hold NaN (integers:
        other values) and the rest what they held before the call; None when it fails."""
        torch = _torch()
        poisoned = dict(before)
        for pname, data in before.items():
            host = bound.arguments[pname]
            if pname in names and data:
                held = torch.frombuffer(bytearray(data), dtype=torch.uint8).view(host.dtype).reshape(host.shape)
                if held.is_floating_point():
                    held = torch.full_like(held, float("nan"))
                elif held.dtype == torch.bool:
                    held = ~held
                else:
                    held = held + 7
                poisoned[pname] = _host_bytes(held)
        handles = _sim_handles(bound, poisoned)
        arguments = {p: _wrap(handles[p]) if p in handles else v for p, v in bound.arguments.items()}
        try:
            with kernel_running():
                fn(**arguments)
        except Exception:  # noqa: BLE001 - a kernel that fails so says nothing of its outputs
            return None
        return {name: _sim.to_bytes(handle) for name, handle in handles.items()}

    def jit_made(self, jit, fn):
        """Notes the function of the kernel file that made a jit kernel (a factory such as
        `make_kernel(dtype, tiles)`) and the arguments it was called with: kernel.made_by and
        kernel.made_with for a kernel that no function needing no arguments builds and calls."""
        code = getattr(fn, "__code__", None)
        frame = sys._getframe(1)
        while frame is not None and code is not None:
            if code in frame.f_code.co_consts:
                if frame.f_code.co_filename == self.kernel_path:
                    own = frame.f_code
                    names = own.co_varnames[: own.co_argcount + own.co_kwonlyargcount]
                    arguments = self._entry_arguments(own, names)
                    if arguments is None:
                        arguments = {n: frame.f_locals[n] for n in names if n in frame.f_locals}
                    self.factories[id(jit)] = (own, arguments)
                    self.hold(jit)
                return
            frame = frame.f_back

    def _entry_arguments(self, code, names):
        """The arguments (`names` of them) the innermost running call of the hooked function whose
        code is `code` was called with; None when no hooked call of it is running."""
        for fn, args, kwargs in reversed(self.entered):
            if fn.__code__ is code:
                try:
                    bound = inspect.signature(fn).bind(*args, **kwargs)
                except (TypeError, ValueError):
                    return None
                bound.apply_defaults()
                return {n: bound.arguments[n] for n in names if n in bound.arguments}
        return None

    def _factory(self, jit, name):
        """(made_by, made_with) for a kernel a top-level function of the kernel file made with
        arguments; (None, None) when none did or an argument is nothing op.json can give (then
        said in the errors, at the function)."""
        found = self.factories.get(id(jit))
        if found is None or self.module is None:
            return None, None
        code, arguments = found
        if getattr(_unhooked(vars(self.module).get(code.co_name)), "__code__", None) is not code:
            return None, None
        described = {}
        for pname, value in arguments.items():
            d = {"kind": "none"} if value is None else _scalar(value)
            if d is None and _nested_literal(value, ellipsis=True) is not None:
                d = {"kind": "literal", "value": _nested_literal(value, ellipsis=True)}
            if d is None and dataclasses.is_dataclass(value) and not isinstance(value, type):
                d = _made_with_config(value, vars(self.module))
            if d is None or d["kind"] == "enum":
                message = (
                    f"{code.co_name}() made the kernel '{name}' with {pname} = {type(value).__name__}, "
                    "which op.json's kernel.made_with cannot give"
                )
                if not any(e.get("message") == message for e in self.errors):
                    self.errors.append({"entry": self.entry, "line": code.co_firstlineno, "col": 1, "message": message})
                return None, None
            described[pname] = d
        return code.co_name, described

    def _module_level(self, jit, name):
        return self.module is not None and vars(self.module).get(name) is jit

    def _maker(self):
        """The function of the kernel file that builds and calls a kernel made inside a function:
        the innermost of the file's top-level functions (or test methods) on the stack that can
        run on its own (needs no arguments, or is the test running now, with its pytest case):
        an example's own test rather than the main() that runs them all. Else, from the file's
        `__main__` block, that block. None when there is none."""
        if self.module is None:
            return None
        entry, _, case = self.entry.partition("[")
        frame = sys._getframe(2)
        while frame is not None:
            code = frame.f_code
            if code.co_filename == self.kernel_path and code.co_name == "<module>":
                return _kernel_maker.MAIN_BLOCK if self.entry == "__main__" else None
            if code.co_filename == self.kernel_path:
                name, value, skip = code.co_name, _unhooked(vars(self.module).get(code.co_name)), 0
                if getattr(value, "__code__", None) is not code:
                    owner = frame.f_locals.get("self")
                    value = getattr(type(owner), name, None) if owner is not None else None
                    name, skip = f"{type(owner).__name__}.{name}", 1
                    if getattr(value, "__code__", None) is not code or type(owner).__name__ not in vars(self.module):
                        value = None
                if value is not None and (name == entry or not _required_parameters(value, skip)):
                    return name + ("[" + case if case and name == entry else "")
            frame = frame.f_back
        return None

    def _repeat_wanted(self, key):
        """A call of a kept signature is kept too while no output of its earlier calls was compared
        (up to MAX_REPEATS): the test may compare this one's."""
        group = [self.first_calls[key]] + self.repeats.get(key, [])
        compared = any(c["call"] in group for c in self.compares)
        return not compared and len(group) <= MAX_REPEATS

    def settle_repeats(self):
        """Of each signature's calls, the first one the test compared an output of stays a call;
        the others are marked `repeat`, and become no case."""
        compared = {c["call"] for c in self.compares}
        for key, first in self.first_calls.items():
            group = [first] + self.repeats.get(key, [])
            if len(group) > 1:
                chosen = next((i for i in group if i in compared), first)
                for i in group:
                    self.calls[i]["repeat"] = i != chosen

    def _enough(self):
        return all(len(s) >= MAX_CALLS_PER_KERNEL for s in self.signatures.values()) and bool(self.signatures)

    # -- goldens and comparisons -----------------------------------------------------------------
    def golden_call(self, fn, args, kwargs, result):
        try:
            bound = inspect.signature(fn).bind(*args, **kwargs)
        except TypeError:
            return
        mapped, touches = [], False
        for pname, value in bound.arguments.items():
            if _is_tensor(value):
                where = self._latest_input(value) or self.outputs.get(id(value)) or self.before_value_of(value)
                touches = touches or where is not None
                mapped.append(
                    {
                        "param": pname,
                        "kind": "tensor",
                        "input": where[1] if where else None,
                        "call": where[0] if where else None,
                        "shape": list(value.shape),
                        "dtype": _dtype_name(value),
                    }
                )
            else:
                mapped.append(dict(_scalar(value) or {"kind": "other", "type": type(value).__name__}, param=pname))
        if not touches:
            self.pending_goldens = self.pending_goldens[-(MAX_PENDING_GOLDENS - 1) :] + [(fn, args, kwargs, result)]
            return
        results = list(result) if isinstance(result, (tuple, list)) else [result]
        described = []
        for r in results:
            if _is_tensor(r):
                self.hold(r)
                described.append({"shape": list(r.shape), "dtype": _dtype_name(r), "id": id(r)})
            else:
                described.append(None)
        golden = {
            "function": fn.__name__,
            "line": fn.__code__.co_firstlineno,
            "file": fn.__code__.co_filename,
            "args": mapped,
            "results": described,
            "tuple": isinstance(result, (tuple, list)),
            "entry": self.entry,
            "matches": self._matches(results),
        }
        self.goldens.append(golden)
        for r in described:
            if r:
                self.golden_results.setdefault(r["id"], []).append((golden, r))

    def _matches(self, results):
        """Which recorded outputs each result of a golden equals closely, by value."""
        torch = _torch()
        found = []
        for k, r in enumerate(results):
            if not _is_tensor(r):
                continue
            for oid, (call, name) in list(self.outputs.items()):
                out = self.kept(oid)
                if out is None or list(out.shape) != list(r.shape):
                    continue
                reading, self.reading = self.reading, True  # import's own comparison
                try:
                    a, b = out.detach().cpu().double(), r.detach().cpu().double()
                    scale = float(b.abs().max()) if b.numel() else 0.0
                    close = bool(torch.allclose(a, b, rtol=5e-2, atol=5e-2 * max(scale, 1e-6), equal_nan=True))
                except Exception:  # noqa: BLE001 - a result torch cannot compare matches nothing
                    close = False
                finally:
                    self.reading = reading
                found.append({"result": k, "call": call, "output": name, "close": close})
        return found

    def compare_call(self, function, a, b, rtol, atol):
        # An output compared as it is (the tensor itself, else a copy: `out.cpu().float()`), else
        # flattened (`np.array(out.flatten().tolist())`). Import's own comparisons are none.
        if self.reading:
            return
        for flattened, by_value in ((False, False), (False, True), (True, False)):
            for index, value in enumerate((a, b)):
                where = self._output_of(value, flattened, by_value)
                if where:
                    self._compared(function, where, b if index == 0 else a, 1 - index, rtol, atol, flattened)
                    return

    def own_compare(self, fn, args, kwargs, result):
        """A function of the file's that takes an output and a value of its size and returns a
        number, a verdict or nothing, asserting inside (`compare_cos(np.array(out.cpu()),
        np.array(expect.cpu()))`, `compare(y, y_gd, "y", atol=1e-4, rtol=7.8e-3)`): a comparison,
        with the tolerances its `rtol`/`atol` parameters hold. True when it is one."""
        if result is not None and not isinstance(result, (bool, int, float)) and not _is_array(result):
            return False
        try:
            values = _bound_values(fn, args, kwargs)
        except (TypeError, ValueError):
            values = [(None, v) for v in args]
        tolerances = {}
        for n, v in values:
            kind = _tolerance_kind(n)
            if kind and isinstance(v, (int, float)) and not isinstance(v, bool):
                tolerances[kind] = v
        arrays = [v for _, v in values]
        for by_value in (False, True):
            for index, value in enumerate(arrays):
                where = self._output_of(value, False, by_value) if _elements(value) is not None else None
                if not where:
                    continue
                for other_index, other in enumerate(arrays):
                    if other_index != index and _elements(other) == _elements(value):
                        rtol, atol = tolerances.get("rtol"), tolerances.get("atol")
                        before = len(self.compares)
                        self._compared(fn.__name__, where, other, other_index, rtol, atol, False, (fn.__name__,))
                        # A helper that lets a share of elements mismatch (`max_error_ratio=0.005`).
                        ratio = tolerances.get("max_error_ratio")
                        if len(self.compares) > before and ratio is not None and 0 <= ratio <= 1:
                            self.compares[-1]["max_error_ratio"] = float(ratio)
                        # One that returns the cosine similarity of the two (kirin's compare_cos).
                        if len(self.compares) > before and _is_cosine_of(result, value, other):
                            self.compares[-1]["cosine"] = True
                        return True
        return False

    def _compared(self, function, where, other, other_index, rtol, atol, flattened, names=_ALLCLOSE_NAMES):
        # What import itself compares while it reads a comparison (the torch calls it tries for a
        # literal) is none of the file's.
        if self.reading:
            return
        self.reading = True
        try:
            self._read_comparison(function, where, other, other_index, rtol, atol, flattened, names)
        finally:
            self.reading = False

    def _read_comparison(self, function, where, other, other_index, rtol, atol, flattened, names):
        golden = self.golden_of(other)
        entry = {
            "function": function,
            "call": where[0],
            "output": where[1],
            "rtol": rtol,
            "atol": atol,
            "golden": golden["function"] if golden else None,
        }
        found = self._test_function()
        if found is not None and _verdict_discarded(found[0], found[1]):
            entry["discarded"] = True
        if golden is None:
            try:
                entry["expression"] = self._expression(other_index, where[0], other, flattened, names)
            except (SyntaxError, ValueError, RecursionError, _Unresolved):
                pass
        self._keep_expected(entry, where, other)
        self.compares.append(entry)

    def _keep_expected(self, entry, where, expected):
        """The compared value itself, for a case's "expected" when import finds no reference."""
        output = next((self.kept(oid) for oid, w in list(self.outputs.items()) if w == where), None)
        kept = any(c.get("expected_file") and (c["call"], c["output"]) == tuple(where) for c in self.compares)
        if output is None or kept:  # one file per output of a call, however often it is compared
            return
        name = f"expected{len(self.compares)}_call{where[0]}_{where[1]}"
        saved = _expected.save(self.out_dir, output, expected, name)
        if saved:
            entry["expected_file"] = saved

    def verify_goldens(self, goldens):
        """pypto.set_verify_golden_data(goldens=[...]): what the next kernel call's tensor arguments
        are expected to hold, slot by slot (None skips one); PyPTO's interpreter tests state their
        expected values so."""
        if not isinstance(goldens, (list, tuple)):
            return
        source = None
        found = self._test_function()
        if found is not None:
            function, line, frame = found
            nodes = _golden_list_nodes(function, line, len(goldens))
            if nodes is not None:
                source = (nodes, line, function, dict(frame.f_locals), frame.f_globals)
        for g in goldens:
            if _is_tensor(g):
                self.hold(g)
        self.pending_verify = (list(goldens), source)

    def _verify_compares(self, call, bound, tolerance):
        """The comparisons set_verify_golden_data stated for `call`, once it has run, judged as
        PyPTO's pass verification judges them (op.json's pass_verify criterion): `tolerance` is
        its (rtol, atol)."""
        goldens, source = self.pending_verify
        self.pending_verify = None
        tensors = [name for name, value in bound.arguments.items() if _is_tensor(value)]
        for slot, expected in enumerate(goldens):
            if slot >= len(tensors) or not _is_tensor(expected):
                continue
            where = self.outputs.get(id(bound.arguments[tensors[slot]]))
            if where is None or where[0] != call:
                continue
            golden = self.golden_of(expected)
            entry = {
                "function": "pypto.set_verify_golden_data",
                "call": call,
                "output": where[1],
                "rtol": tolerance[0],
                "atol": tolerance[1],
                "criterion": "pass_verify",
                "golden": golden["function"] if golden else None,
            }
            if golden is None and source is not None:
                nodes, line, function, local_values, global_values = source
                try:
                    entry["expression"] = self._expression_of(
                        nodes[slot], line, function, local_values, call, expected, False, global_values
                    )
                except (SyntaxError, ValueError, RecursionError, _Unresolved):
                    pass
            self._keep_expected(entry, (call, where[1]), expected)
            self.compares.append(entry)

    def difference(self, a, b):
        """`a - b` with a kernel output: PyPTO's examples check `max_diff = (out - expected)
        .abs().max()` against a number (`assert max_diff < 1e-1`), an atol with no rtol."""
        if not (id(a) in self.outputs or id(b) in self.outputs):
            # A copy of an output in another shape, `y.reshape(x.shape).float()`, has its size.
            if not any(_is_tensor(v) and v.numel() in self.output_sizes for v in (a, b)):
                return
        found = self._test_function()
        if found is None:
            return
        function, line, frame = found
        bound = _difference_bound(function, line, {**frame.f_globals, **frame.f_locals})
        if bound is not None:
            self.compare_call("max_abs_difference", a, b, 0.0, bound)

    def _test_function(self):
        """The AST of the file's function running now, the line it is at and its frame; None
        outside the file."""
        frame = sys._getframe()
        # The host file's, or the kernel file's when a test beside it calls the kernel file's
        # helper that compares (kirin's run_abs_test).
        while frame is not None and frame.f_code.co_filename not in (self.path, self.kernel_path):
            frame = frame.f_back
        if frame is None:
            return None
        if frame.f_code.co_filename == self.path:
            if self.tree is None:
                self.tree = ast.parse(self.source)
            tree = self.tree
        else:
            if self.kernel_tree is None:
                self.kernel_tree = ast.parse(self.kernel_source)
            tree = self.kernel_tree
        line, name = frame.f_lineno, frame.f_code.co_name
        if name == "<module>":  # the file's `if __name__ == "__main__":` block
            return tree, line, frame
        function = next(
            (
                n
                for n in ast.walk(tree)
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                and n.name == name
                and n.lineno <= line <= n.end_lineno
            ),
            None,
        )
        return (function, line, frame) if function is not None else None

    def _expression(self, arg_index, call, expected, flattened=False, names=_ALLCLOSE_NAMES):
        """What the test compares the output with, written over the kernel's inputs: the compared
        expression with the test's local names replaced by what they were assigned (a backward
        slice of the test function), the kernel's input tensors by the op's input names and plain
        values by their values. None when it depends on no input (a literal expected tensor)."""
        found = self._test_function()
        if found is None:
            return None
        function, line, frame = found
        compared = _compared_operands(function, line, names)
        if compared is None or len(compared[0]) <= arg_index:
            return None
        operands, compare_line = compared
        return self._expression_of(
            operands[arg_index], compare_line, function, frame.f_locals, call, expected, flattened, frame.f_globals
        )

    def _expression_of(self, node, line, function, local_values, call, expected, flattened=False, global_values=None):
        """The expression `node` of `function` at `line` written over the inputs of `call`; with
        `flattened`, its flattening left out, as the output it is compared with was flattened.
        A name is read at its last assignment before the line; when the expression then does not
        give the compared value (the assignment is in a branch that did not run), at the one
        before it."""
        compare_line = line
        excluded = set()
        for _ in range(MAX_ASSIGNMENT_TRIES):
            slicer = _Slicer(self, function, local_values, call, flattened, global_values, excluded)
            tree = slicer.resolve(node, compare_line, 0)
            constant = not slicer.used and not slicer.params
            if constant:
                # A literal expected value: the torch function the kernel is named after, when it
                # gives exactly that value from the call's inputs.
                named = self._named_function(call, expected)
                if named:
                    return dict(named, line=compare_line)
                if _draws_random(tree):
                    return None
            out = {"expression": ast.unparse(tree), "line": compare_line, "inputs": sorted(slicer.used)}
            if constant:
                # The reference of an op that takes nothing (`torch.ones(SHAPE)` of a kernel that
                # reads no tensor and no scalar); of any other op it is not (import decides).
                out["constant"] = True
            if _is_tensor(expected) or _is_array(expected):
                # A reshape of the output (`out.reshape(q.shape)` a wrapper returns) is compared
                # in its own shape: the reference reshapes back.
                out["shape"] = list(expected.shape)
            if _is_tensor(expected):
                out["dtype"] = _dtype_name(expected)
            elif _is_array(expected) and str(getattr(expected, "dtype", "")) in NUMPY_DTYPES:
                # np.array(expect.to(torch.int32)): the reference casts back to the output's dtype.
                out["dtype"] = str(expected.dtype)
            reading, self.reading = self.reading, True  # import's own comparison
            try:
                refuted = _contradicts(
                    out["expression"], self._call_values(call, slicer.used | slicer.params), expected
                )
            finally:
                self.reading = reading
            if not refuted:
                return out
            if not slicer.assignments:
                break
            excluded.add(max(slicer.assignments))
        raise _Unresolved(f"no assignment of the names line {compare_line} compares gives the value it compared")

    def _call_values(self, call, names):
        """The inputs of `call` among `names` as they were (an updated one before the call) and its
        parameters, by name."""
        values = {}
        recorded = self.calls[call] if 0 <= call < len(self.calls) else {"args": []}
        for a in recorded["args"]:
            if a["name"] not in names:
                continue
            if a.get("kind") == "tensor":
                value = self._input_tensor(call, a["name"])
                if value is None:
                    value = self.before_values.get(call, {}).get(a["name"])
                if value is not None:
                    values[a["name"]] = value.detach().cpu().clone()
            elif "value" in a:
                values[a["name"]] = a["value"]
        return values

    def _named_function(self, call, expected):
        """For a literal expected value: the torch call over the call's inputs and parameters
        that gives exactly that value, tried from the words of the kernel's name and the pypto
        ops its body calls (`abs_kernel` -> `torch.abs(x)`, `matmul_bias_kernel` ->
        `torch.matmul(a, b) + bias`). See _ptowb_import_literal."""
        torch = _torch()
        recorded = self.calls[call] if 0 <= call < len(self.calls) else None
        if torch is None or recorded is None:
            return None
        try:
            import numpy as np

            wanted = torch.as_tensor(np.asarray(expected)) if not _is_tensor(expected) else expected.detach().cpu()
        except Exception:  # noqa: BLE001 - what cannot be a tensor names nothing
            return None
        tensors, scalars = [], []
        for a in recorded["args"]:
            if a.get("kind") == "tensor":
                value = self._input_tensor(call, a["name"])
                if value is not None:
                    tensors.append((a["name"], value.detach().cpu()))
            elif a.get("kind") in ("int", "float", "bool", "int[]", "float[]"):
                scalars.append((a["name"], a["value"]))
        if self.kernel_tree is None:
            self.kernel_tree = ast.parse(self.kernel_source)
        words = recorded["kernel"].split("_") + _literal.kernel_ops(self.kernel_tree, recorded["kernel"])
        return _literal.search(torch, words, tensors, scalars, wanted)

    def parameter_of(self, value, name, call):
        """The parameter of `call` that `value` (named `name` in the test) was passed as: the same
        object, or an equal value under the parameter's own name. None for anything else."""
        for param, passed in self.scalars.get(call, ()):
            if passed is value and not isinstance(value, (bool, int)):
                return param
            if param == name and _same(passed, value):
                return param
        return None

    def _latest_input(self, value):
        """(call index, parameter) of the latest call `value` was an input of; None when none."""
        calls = self.input_calls.get(id(value))
        return (max(calls), calls[max(calls)]) if calls else None

    def input_of(self, value, call):
        """The op input of `call` that `value` is: the tensor passed, or a view of it with the same
        shape and layout (`torch_npu.npu_format_cast(x, 29)` passes a view of `x`, and the test's
        expected value is written over `x`). None for any other tensor."""
        calls = self.input_calls.get(id(value))
        if calls:  # one tensor may be the input of several calls (two kernels read `b`)
            return (call, calls[call]) if call in calls else None
        key = _layout(value)
        if key is None:
            return None
        for oid, calls in list(self.input_calls.items()):
            tensor = self.kept(oid)
            if call in calls and tensor is not None and tensor.numel() and _layout(tensor) == key:
                return (call, calls[call])
        return self.before_value_of(value, call)

    def updated_by(self, value, call):
        """(call, parameter) when `value` is the very tensor `call` wrote over in place: an
        expression the test computed from it before the call (`expected = total + x`) reads what
        it held then, which is what the check of the expression evaluates it with."""
        where = self.outputs.get(id(value))
        if where is not None and where[0] == call and where[1] in self.before_values.get(call, {}):
            return where
        return None

    def before_value_of(self, value, call=None):
        """(call, parameter) of a tensor the call updated whose values before it `value` holds (the
        test's original of a clone it passed), the latest call first; None when none."""
        if not _is_tensor(value) or not value.numel():
            return None
        for index in [call] if call is not None else sorted(self.before_values, reverse=True):
            for name, held in self.before_values.get(index, {}).items():
                if list(held.shape) != list(value.shape) or held.dtype != value.dtype:
                    continue
                reading, self.reading = self.reading, True  # import's own comparison
                try:
                    if _torch().equal(held, value.detach().cpu()):
                        return (index, name)
                except Exception:  # noqa: BLE001 - values torch cannot compare are not that input
                    continue
                finally:
                    self.reading = reading
        return None

    def _flattened_output_of(self, value):
        """The output whose values, flattened, `value` holds (the latest call first)."""
        flat = _flat_values(value)
        if flat is None:
            return None
        import numpy as np

        for oid, where in reversed(list(self.outputs.items())):
            out = self.kept(oid)
            if out is None or out.dim() < 2 or out.numel() != flat.size:
                continue
            try:
                if np.array_equal(out.detach().cpu().double().reshape(-1).numpy(), flat, equal_nan=True):
                    return where
            except Exception:  # noqa: BLE001
                continue
        return None

    def _input_tensor(self, call, name):
        for oid, calls in list(self.input_calls.items()):
            if calls.get(call) == name:
                return self.kept(oid)
        return None

    def _output_of(self, value, flattened=False, by_value=False):
        if flattened:
            return self._flattened_output_of(value)
        if _is_tensor(value):
            if by_value:
                return self._tensor_copy_of_output(value)
            return self.outputs.get(id(value)) or self._reshape_of_output(value)
        try:
            import numpy as np
        except ImportError:
            return None
        if not isinstance(value, np.ndarray):
            return None
        # `out.cpu().numpy()` of a host tensor shares its memory: that names the output exactly,
        # in any shape (`y_2d.reshape(shape).numpy()` of the [rows, cols] output a wrapper passed).
        # A copy is matched by value, the latest call first: two tests may expect equal values.
        candidates = []
        for oid, where in reversed(list(self.outputs.items())):
            out = self.kept(oid)
            if out is not None and out.numel() == value.size:
                candidates.append((out, where))
        for out, where in candidates:
            try:
                if out.device.type == "cpu" and out.numel() and np.shares_memory(out.detach().numpy(), value):
                    return where
            except Exception:  # noqa: BLE001 - a tensor NumPy cannot view shares nothing
                continue
        for out, where in candidates:
            if list(out.shape) != list(value.shape):
                continue
            try:
                if np.array_equal(out.detach().cpu().float().numpy(), value.astype(np.float32)):
                    return where
            except Exception:  # noqa: BLE001
                continue
        return None

    def _reshape_of_output(self, value):
        """The output a tensor is a reshape of, sharing its memory element for element: a wrapper
        that returns `out.reshape(q.shape)` of the [T * N, D] output it passed the kernel."""
        for oid, where in reversed(list(self.outputs.items())):
            out = self.kept(oid)
            try:
                if (
                    out is not None
                    and out.numel()
                    and out.numel() == value.numel()
                    and out.dtype == value.dtype
                    and out.is_contiguous()
                    and value.is_contiguous()
                    and out.data_ptr() == value.data_ptr()
                ):
                    return where
            except Exception:  # noqa: BLE001 - a tensor whose memory cannot be read shares none
                continue
        return None

    def _tensor_copy_of_output(self, value):
        """The output a tensor holds the values of (`out.cpu().float()`, in any shape: a wrapper's
        `y_2d.reshape(x.shape)`), the latest call first."""
        for oid, where in reversed(list(self.outputs.items())):
            out = self.kept(oid)
            if out is None or out.numel() != value.numel():
                continue
            reading, self.reading = self.reading, True  # import's own comparison
            try:
                if _torch().equal(out.detach().cpu().double().reshape(-1), value.detach().cpu().double().reshape(-1)):
                    return where
            except Exception:  # noqa: BLE001 - values torch cannot compare hold no output
                continue
            finally:
                self.reading = reading
        return None


def _is_array(value):
    """A NumPy array or scalar (compared without importing NumPy where the file does not)."""
    return type(value).__module__ == "numpy"


def _elements(value):
    """How many elements a tensor or a NumPy array holds; None for anything else."""
    if _is_tensor(value):
        return value.numel()
    return getattr(value, "size", None) if _is_array(value) else None


def _is_cosine_of(result, a, b):
    """Whether a helper's number is the cosine similarity of arrays a and b (1 for two zeros)."""
    if isinstance(result, bool) or not isinstance(result, (int, float)) and not _is_array(result):
        return False
    try:
        import numpy as np

        x = np.asarray(a.detach().cpu().double() if _is_tensor(a) else a, dtype=np.float64).reshape(-1)
        y = np.asarray(b.detach().cpu().double() if _is_tensor(b) else b, dtype=np.float64).reshape(-1)
        nx, ny = float(np.sqrt(np.sum(x * x))), float(np.sqrt(np.sum(y * y)))
        cosine = 1.0 if nx == 0 and ny == 0 else 0.0 if nx == 0 or ny == 0 else float(np.sum(x * y)) / (nx * ny)
        return math.isfinite(cosine) and abs(float(result) - cosine) <= 1e-6
    except Exception:  # noqa: BLE001 - values NumPy cannot read are no cosine's
        return False


def _check_annotations(fn, tensors):
    """Raises what a run of the project raises (and PyPTO's jit, before it compiles) when a tensor
    argument's dtype or fixed dims are not those its annotation gives; binds the dynamic dims."""
    line, bound = fn.__code__.co_firstlineno, {}
    for name, param in inspect.signature(fn).parameters.items():
        if name in tensors:
            _driver._check_tensor(name, _driver._annotation(fn, param), tensors[name], line, bound)


def _sim_handles(bound, before):
    """The simulator's tensors holding a call's tensor arguments (parameter -> bytes)."""
    return {
        p: _sim.from_bytes(data, list(bound.arguments[p].shape), _dtype_name(bound.arguments[p]))
        for p, data in before.items()
    }


def _bound_values(fn, args, kwargs):
    """[(parameter, value)] of a call of `fn`, defaults filled in; the items of its `*args` and
    `**kwargs` each on its own (`compare(**kwargs)` reading `kwargs.get("expected")`)."""
    signature = inspect.signature(fn)
    bound = signature.bind(*args, **kwargs)
    bound.apply_defaults()
    values = []
    for name, value in bound.arguments.items():
        kind = signature.parameters[name].kind
        if kind is inspect.Parameter.VAR_KEYWORD:
            values.extend(value.items())
        elif kind is inspect.Parameter.VAR_POSITIONAL:
            values.extend((None, v) for v in value)
        else:
            values.append((name, value))
    return values


def _tolerance_kind(name):
    """ "rtol", "atol" or "max_error_ratio" for a comparison's parameter of that meaning: those
    names, and the spellings of helpers (`rel_tol`/`abs_tol` as math.isclose, `atol_rel`/`atol_abs`
    as `atol_abs + atol_rel * |expected|`); None for any other."""
    if not isinstance(name, str):
        return None
    if name in ("rtol", "atol", "max_error_ratio"):
        return name
    lowered = name.lower()
    if "tol" in lowered and "rel" in lowered:
        return "rtol"
    if "tol" in lowered and "abs" in lowered:
        return "atol"
    return None


def _unhooked(value):
    """A function of the file as it wrote it, under import's golden hook."""
    return getattr(value, "__wrapped__", value) if isinstance(value, types.FunctionType) else value


def _required_parameters(fn, skip):
    try:
        params = list(inspect.signature(fn).parameters.values())[skip:]
    except (TypeError, ValueError):
        return ["?"]
    return [p.name for p in params if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def _same(a, b):
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001
        return False


def _patch(owner, name, make):
    original = getattr(owner, name, None)
    if original is None:
        return None
    setattr(owner, name, make(original))
    return (owner, name, original)


def _install(recorder, module):
    undo = []
    # Hooked before the file binds `from numpy.testing import assert_allclose`, and even when the
    # kernel file itself imports no torch (its tests, in a file beside it, do).
    for name in ("torch", "numpy.testing"):
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    torch = _torch()

    def jit_call(original):
        def call(self, *args, **kwargs):
            if in_kernel_call[0] or not recorder.active:
                return original(self, *args, **kwargs)
            return recorder.kernel_call(self, args, kwargs)

        return call

    undo.append(_patch(JitFunction, "__call__", jit_call))

    def jit_made(original):
        def init(self, fn, *args, **kwargs):
            original(self, fn, *args, **kwargs)
            recorder.jit_made(self, fn)

        return init

    undo.append(_patch(JitFunction, "__init__", jit_made))

    def compare(function, rtol_default, atol_default):
        def make(original):
            def checked(actual, expected, *args, **kwargs):
                rtol = kwargs.get("rtol", args[0] if args else rtol_default)
                atol = kwargs.get("atol", args[1] if len(args) > 1 else atol_default)
                if rtol is None and atol is None and function == "torch.testing.assert_close":
                    rtol, atol = _assert_close_defaults(actual, expected)
                if isinstance(rtol, (int, float)) and isinstance(atol, (int, float)):
                    recorder.compare_call(function, actual, expected, float(rtol), float(atol))
                return original(actual, expected, *args, **kwargs)

            return checked

        return make

    def exact(function):
        """assert_array_equal and friends: a comparison with no tolerance at all."""

        def make(original):
            def checked(actual, expected, *args, **kwargs):
                recorder.compare_call(function, actual, expected, 0.0, 0.0)
                return original(actual, expected, *args, **kwargs)

            return checked

        return make

    if torch is not None:
        for factory, fill in FILLS.items():

            def make(original, fill=fill):
                def tagged(*args, **kwargs):
                    out = original(*args, **kwargs)
                    if _is_tensor(out):
                        recorder.fills[id(out)] = fill
                        recorder.hold(out)
                    return out

                return tagged

            undo.append(_patch(torch, factory, make))

        def subtract(original):
            def difference(a, b):
                if recorder.active and not in_kernel_call[0] and recorder.outputs:
                    recorder.difference(a, b)
                return original(a, b)

            return difference

        undo.append(_patch(torch.Tensor, "__sub__", subtract))

        def initialised(original):
            # `torch.empty(shape).uniform_(-1, 1)`: the buffer holds values now, no fill of ours.
            def init(self, *args, **kwargs):
                recorder.fills.pop(id(self), None)
                return original(self, *args, **kwargs)

            return init

        for method in IN_PLACE_INITIALISERS:
            undo.append(_patch(torch.Tensor, method, initialised))
    pypto_module = sys.modules.get("pypto")
    if pypto_module is not None and hasattr(pypto_module, "set_verify_golden_data"):

        def verify_goldens(original):
            def stated(in_out_tensors=None, goldens=None):
                result = original(in_out_tensors=in_out_tensors, goldens=goldens)
                recorder.verify_goldens(goldens)
                return result

            return stated

        undo.append(_patch(pypto_module, "set_verify_golden_data", verify_goldens))
        undo.append(_patch(torch, "allclose", compare("torch.allclose", 1e-5, 1e-8)))
        undo.append(_patch(torch, "isclose", compare("torch.isclose", 1e-5, 1e-8)))
        undo.append(_patch(torch, "equal", exact("torch.equal")))
        if hasattr(torch, "testing"):
            undo.append(_patch(torch.testing, "assert_close", compare("torch.testing.assert_close", None, None)))
    numpy_module = sys.modules.get("numpy")
    if numpy_module is not None:
        undo.append(_patch(numpy_module, "allclose", compare("numpy.allclose", 1e-5, 1e-8)))
        undo.append(_patch(numpy_module, "isclose", compare("numpy.isclose", 1e-5, 1e-8)))
        undo.append(
            _patch(numpy_module.testing, "assert_allclose", compare("numpy.testing.assert_allclose", 1e-7, 0.0))
        )
        for name in ("assert_array_equal", "assert_equal"):
            undo.append(_patch(numpy_module.testing, name, exact(f"numpy.testing.{name}")))

    return [u for u in undo if u] + _hook_goldens(recorder, module)


def _assert_close_defaults(actual, expected):
    """The tolerances torch.testing.assert_close takes for these dtypes when given none (float32:
    rtol 1.3e-6, atol 1e-5; float16: 1e-3, 1e-5), from torch itself; (None, None) when it cannot say."""
    try:
        from torch.testing._comparison import default_tolerances

        tensors = [v for v in (actual, expected) if _is_tensor(v)]
        return default_tolerances(*tensors) if tensors else (None, None)
    except Exception:  # noqa: BLE001 - a torch without it, or values it cannot read
        return None, None


def _hook_goldens(recorder, module, only=None, also_under=()):
    """The module's plain functions (those named in `only`, when given), its own and those it
    imports from a module in the kernel's folder (`from _ops.rope_golden import rope_golden`), or
    below one of the folders `also_under`: a call with a kernel's input is a golden candidate."""
    undo = []
    below = tuple(os.path.join(f, "") for f in (recorder.folder, *also_under) if f)
    for name, value in list(vars(module).items() if module is not None else ()):
        if (
            isinstance(value, types.FunctionType)
            and (value.__code__.co_filename == module.__file__ or value.__code__.co_filename.startswith(below))
            and (only is None or name in only)
            and not name.startswith("test")
            and name != "main"
            and not _launches_kernel(value, module)
        ):

            def make(original):
                def golden(*args, **kwargs):
                    launches = recorder.launches
                    recorder.entered.append((original, args, kwargs))
                    try:
                        result = original(*args, **kwargs)
                    except AssertionError:
                        # A comparison that failed is a comparison still.
                        if recorder.active and not in_kernel_call[0]:
                            recorder.own_compare(original, args, kwargs, None)
                        raise
                    finally:
                        recorder.entered.pop()
                    # A function that runs a kernel (a launcher wrapping it) is no golden.
                    if recorder.active and not in_kernel_call[0] and recorder.launches == launches:
                        if not recorder.own_compare(original, args, kwargs, result):
                            recorder.golden_call(original, args, kwargs, result)
                    return result

                golden.__wrapped__ = original  # the file's function, as _maker looks for it
                return golden

            undo.append(_patch(module, name, make))
    return [u for u in undo if u]


def _code_roots(folder):
    """The folders a file in `folder` finds the author's modules from: its own, its package root
    and the folders pytest would put on sys.path for it (conftest_roots), which go on it now too,
    last, as pytest's would."""
    conftest = _files.conftest_roots(folder)
    for where in conftest:
        if where not in sys.path:
            sys.path.append(where)
    return [folder, _driver.package_root(folder)] + conftest


def _hook_local_imports(recorder, tree, roots):
    """A test that imports its comparison inside its body (`from models.deepseek_v32_exp.utils.
    compare import compare`) binds the function only when it runs: the module, when it is the
    author's (a file below one of `roots`, the folders the file's own code is found from), is
    imported now and the names taken from it are hooked there, so that the test binds the hooked
    ones. A module that fails to import is left to the test, which reports it."""
    undo = []
    roots = tuple(os.path.join(r, "") for r in roots)
    for name, taken in sorted(_files.local_imports(tree).items()):
        # Only a package of the author's is imported ahead of the test: finding the top-level
        # one runs nothing, and an installed module (torch_npu.contrib) is left alone.
        try:
            spec = importlib.util.find_spec(name.split(".")[0])
        except (ImportError, ValueError):
            continue
        places = list(getattr(spec, "submodule_search_locations", None) or []) + [getattr(spec, "origin", None)]
        if not any(isinstance(p, str) and os.path.abspath(p).startswith(roots) for p in places):
            continue
        try:
            imported = importlib.import_module(name)
        except Exception:  # noqa: BLE001 - the test's own import fails the same way, at its line
            continue
        where = getattr(imported, "__file__", None)
        if not isinstance(where, str) or not os.path.abspath(where).startswith(roots):
            continue
        undo.extend(_hook_goldens(recorder, imported, only=taken))
    return undo


def _launches_kernel(fn, module):
    """Whether `fn`'s code names one of the module's jit kernels: a launcher wrapping a kernel
    (`softmax(x)` calling `softmax_kernel(x, out)`) is no golden, though its result is the output."""
    kernels = {n for n, v in vars(module).items() if isinstance(v, JitFunction)}
    return bool(kernels.intersection(_memo.names_read(fn.__code__)))


def _defining_module(path):
    """(source, module) of the loaded module whose file is `path`; None when there is none."""
    module = next((m for m in list(sys.modules.values()) if getattr(m, "__file__", None) == path), None)
    if module is None:
        return None
    try:
        with open(path, encoding="utf-8") as f:
            return f.read(), module
    except (OSError, UnicodeDecodeError):
        return None


def _entry_points(module, recorder, by_main=None):
    """The file's test functions and test methods with their arguments and the pytest fixtures
    they take (made from the file and the conftest.py files above it, as pytest would).
    by_main: what the file's main block passed to its test functions (_TestsCalledByMain): a
    parameter no fixture makes takes the value it passed there (`def test_level0(device)`, which
    main() calls as `test_level4(_device())`), and a test it ran with nothing but such values is not
    run again."""
    by_main = by_main or _TestsCalledByMain()
    points = []
    for name, value in vars(module).items():
        if name.startswith("test") and isinstance(value, types.FunctionType) and value.__module__ == module.__name__:
            points.append((name, value, None))
        elif name.startswith("Test") and isinstance(value, type):
            for attr, method in vars(value).items():
                if attr.startswith("test") and isinstance(method, types.FunctionType):
                    points.append((f"{name}.{attr}", method, value))
    for name, fn, owner in points:
        for case, arguments in _kernel_maker.parametrizations(fn, MAX_CALLS_PER_KERNEL):
            missing = _kernel_maker.missing_parameters(fn, arguments, 1 if owner else 0)
            fixtures = _kernel_maker.Fixtures(module)
            passed = {m: by_main.arguments[m] for m in missing if not fixtures.can_make(m) and m in by_main.arguments}
            if passed and name in by_main.called and not arguments and len(passed) == len(missing):
                break
            arguments = dict(arguments, **passed)
            missing = [m for m in missing if m not in passed]
            unmade = [m for m in missing if not fixtures.can_make(m)]
            if unmade:
                recorder.errors.append(
                    {
                        "file": fn.__code__.co_filename,
                        "entry": name,
                        "line": fn.__code__.co_firstlineno,
                        "col": 1,
                        "message": f"{name} needs {', '.join(unmade)}, which no pytest fixture of the file "
                        "or of a conftest.py above it makes: not run",
                    }
                )
                break
            yield f"{name}[{case}]" if case else name, functools.partial(
                _call_test, fn, owner, arguments, missing, fixtures
            )


def _call_test(fn, owner, arguments, taken, fixtures):
    try:
        given = dict(arguments, **{name: fixtures.value(name) for name in taken})
        return fn(owner(), **given) if owner else fn(**given)
    finally:
        fixtures.close()


def _run(recorder, name, thunk):
    if time.monotonic() > recorder.deadline:
        recorder.not_run.append(name)
        return
    recorder.entry = name
    recorder.active = True
    recorder.memo.clear()  # a call of another test is no repeat of this one's
    try:
        with _stopped_at(recorder.deadline):
            thunk()
    except (_Enough, SystemExit):
        pass
    except BaseException as exc:  # noqa: B902 - the file's own failure is reported at its line
        if isinstance(exc, KeyboardInterrupt) or isinstance(exc, _driver.Interrupted):
            raise
        line, col, _, _ = _driver._position(exc, recorder.path)
        error = {"file": recorder.path, "entry": name, "line": line, "col": col}
        if isinstance(exc, _TimeUp):
            error["message"] = (
                f"stopped, import's time ({recorder.seconds:g} s) was up; "
                "the calls it made before are kept (--time-limit gives more)"
            )
        else:
            error["message"] = _driver._message(exc)
            error["traceback"] = _driver._kernel_traceback(exc, recorder.path)
        recorder.errors.append(error)
    finally:
        recorder.active = False
        recorder.let_go()


def _def_line(fn, source):
    """The line of the kernel's `def` (a decorated function's code starts at its decorator)."""
    lines = source.splitlines()
    first = fn.__code__.co_firstlineno
    for number in range(first, min(first + 50, len(lines)) + 1):
        stripped = lines[number - 1].lstrip()
        if stripped.startswith(("def ", "async def ")):
            return number
    return first


def _is_default(field, value):
    """Whether a dataclass field holds the default its class gives it."""
    if field.default is not dataclasses.MISSING:
        default = field.default
    elif field.default_factory is not dataclasses.MISSING:
        default = field.default_factory()
    else:
        return False
    return _same(default, value)


def _made_with_config(value, namespace):
    """A factory's dataclass argument (`_get_fwd_kernel(cfg, ...)`) as kernel.made_with gives it:
    its class and the fields that differ from the class's defaults, which op.json need not spell
    (a torch dtype, `float('-inf')`); None when a field that differs is nothing op.json can give
    (a torch dtype among them: op.json's dtypes reach a factory as pypto's)."""
    fields = {}
    for f in dataclasses.fields(value):
        field_value = getattr(value, f.name)
        if not f.init or _is_default(f, field_value):
            continue
        torch = _torch()
        if torch is not None and isinstance(field_value, torch.dtype):
            return None
        d = {"kind": "none"} if field_value is None else _scalar(field_value)
        if d is None or d["kind"] == "enum":
            return None
        fields[f.name] = d
    return {"kind": "config", "class": _class_spelling(type(value), namespace), "fields": fields}


def _class_spelling(cls, namespace):
    """How op.json names `cls` for a kernel whose module namespace is `namespace`: by the name the
    module binds it to, else through the module it was imported from (`from m import f` loads
    `m` without binding it: `m.Config`)."""
    home = sys.modules.get(cls.__module__)
    outer = cls.__qualname__.split(".")[0]
    if home is not None and outer in namespace and namespace[outer] is vars(home).get(outer):
        return cls.__qualname__
    for name, value in namespace.items():
        if value is home:
            return f"{name}.{cls.__qualname__}"
    # A module below the folder of a kernel file of a package (`from .bsa_common import helper`
    # loads bsa_common): named from the kernel's package, whatever name a test loaded it under.
    where, kernel_file = getattr(home, "__file__", None), namespace.get("__file__")
    if namespace.get("__package__") and isinstance(where, str) and isinstance(kernel_file, str):
        relative = os.path.relpath(os.path.splitext(where)[0], os.path.dirname(kernel_file)).split(os.sep)
        if all(part.isidentifier() for part in relative):
            return ".".join(relative + [cls.__qualname__])
    return f"{cls.__module__}.{cls.__qualname__}"


def _read_state(fn):
    """The plain values a kernel reads by name beside its arguments: its module's globals
    (`SCALE`) and the attributes of classes it names (`MatmulQuantConfig.scale_value`)."""
    names = _memo.names_read(fn.__code__)
    state = {}
    for name in names:
        value = fn.__globals__.get(name)
        if isinstance(value, (bool, int, float, str)):
            state[name] = value
        elif isinstance(value, type):
            for attribute, held in vars(value).items():
                if attribute in names and isinstance(held, (bool, int, float, str)):
                    state[f"{name}.{attribute}"] = held
    return state


def _kernels(module, path, source):
    found = []
    for name, value in vars(module).items():
        if not isinstance(value, JitFunction):
            continue
        fn = value.fn
        while isinstance(fn, JitFunction):
            fn = fn.fn
        if getattr(fn, "__code__", None) is None or fn.__code__.co_filename != path:
            continue
        found.append(_kernel_entry(name, fn, source))
    return found


def _kernel_entry(name, fn, source):
    """A kernel as import reports it: its name, the line of its `def` in `source` (None: the
    kernel is defined in another file) and its parameters."""
    params = []
    for p in inspect.signature(fn).parameters.values():
        entry = {
            "name": p.name,
            "variadic": p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD),
            "annotation": _annotation(fn, p),
        }
        if p.default is not inspect.Parameter.empty:
            entry["default"] = _scalar(p.default)
        params.append(entry)
    line = _def_line(fn, source) if source is not None else None
    return {"name": name, "line": line, "params": params}


def _made_kernels(recorder, module, source):
    """The kernels built inside a function (a test, a launcher, a factory) that the file's code
    called, each with the function of the file that builds it (op.json's kernel.made_by)."""
    found = {}
    for call in recorder.calls:
        made_by = call.get("made_by")
        name = call["kernel"]
        if call["module_level"] or not made_by or name in found or name in vars(module):
            continue
        fn = recorder.made_functions.get(name)
        if fn is None:
            continue
        own = fn.__code__.co_filename == recorder.kernel_path
        entry = _kernel_entry(name, fn, source if own else None)
        entry["made_by"] = made_by
        if "made_with" in call:
            entry["made_with"] = call["made_with"]
        if not own:
            entry["defined_in"] = fn.__code__.co_filename
            entry["def_line"] = fn.__code__.co_firstlineno
        found[name] = entry
    return list(found.values())


def _made_uncalled(recorder, module, source, described):
    """The kernels a function of the file made that nothing called (`sum_lstm(run_mode="npu")`
    makes and returns one, which its test file never calls: the test calls a copy of its own),
    each with that function and its arguments (op.json's made_by, made_with): a twin's calls may
    be its cases."""
    found = {}
    for oid in list(recorder.factories):
        jit = recorder.kept(oid)
        fn = getattr(jit, "fn", None)
        while isinstance(fn, JitFunction):
            fn = fn.fn
        if fn is None or fn.__name__ in described or fn.__name__ in found:
            continue
        made_by, made_with = recorder._factory(jit, fn.__name__)
        if made_by is None:
            continue
        entry = _kernel_entry(fn.__name__, fn, source if fn.__code__.co_filename == recorder.kernel_path else None)
        entry["made_by"] = made_by
        if made_with:
            entry["made_with"] = made_with
        found[fn.__name__] = entry
    return list(found.values())


def _test_kernels(recorder, described):
    """The kernels of the test files that their tests called (`sum_lstm_kernel_sim`, a test's copy
    of the kernel file's): no kernel of the file, but a twin whose calls a kernel of the file that
    nothing called may take."""
    found = {}
    for call in recorder.calls:
        name = call["kernel"]
        fn = recorder.made_functions.get(name)
        if name in described or name in found or call.get("made_by") or fn is None:
            continue
        if fn.__code__.co_filename == recorder.kernel_path:
            continue
        entry = _kernel_entry(name, fn, None)
        entry.update(defined_in=fn.__code__.co_filename, def_line=fn.__code__.co_firstlineno, twin_only=True)
        found[name] = entry
    return list(found.values())


class _TestsCalledByMain:
    """The test functions a file's main block called, and the arguments it passed them by
    parameter name."""

    def __init__(self):
        self.called = set()
        self.arguments = {}

    def hook(self, module):
        """Wraps the module's test functions for the main block's run; returns the undo list."""
        undo = []
        for name, fn in list(vars(module).items()):
            if not (name.startswith("test") and isinstance(fn, types.FunctionType)):
                continue
            if fn.__module__ != module.__name__:
                continue

            undo.append((module, name, fn))
            setattr(module, name, self._noting(name, fn))
        return undo

    def _noting(self, name, fn):
        @functools.wraps(fn)
        def noted(*args, **kwargs):
            self.called.add(name)
            try:
                bound = inspect.signature(fn).bind_partial(*args, **kwargs)
            except TypeError:
                bound = None
            if bound is not None:
                for parameter, value in bound.arguments.items():
                    self.arguments.setdefault(parameter, value)
            return fn(*args, **kwargs)

        return noted


def _main_block_runner(block, path, module, by_main):
    """Runs a file's main block as `python FILE` from the file's folder would: the files it opens
    by a relative path (a test's `--json test_cases.json` default) are those beside it. by_main
    notes the test functions it calls."""
    code = compile(block, path, "exec")

    def run():
        try:
            saved = os.getcwd()
        except OSError:
            saved = None
        os.chdir(os.path.dirname(os.path.abspath(path)))
        undo = by_main.hook(module)
        try:
            exec(code, module.__dict__)
        finally:
            for u in reversed(undo):
                setattr(*u)
            if saved is not None:
                os.chdir(saved)

    return run


def _run_test_file(recorder, path, source, undo):
    """Loads a test file as a module of its own (the kernel module it imports is the one already
    loaded and hooked), then runs its `__main__` block and its tests. None when it fails to load;
    the failure is reported at its line."""
    recorder.host(path, source)
    name = os.path.splitext(os.path.basename(path))[0]
    module = types.ModuleType(name)
    module.__file__ = path
    linecache.cache[path] = (len(source), None, source.splitlines(True), path)
    folder = os.path.dirname(path)
    if folder not in sys.path:
        sys.path.append(folder)
    try:
        tree = ast.parse(source, path)
        previous = sys.modules.get(name)
        sys.modules[name] = module
        sys.argv = [path]
        recorder.active = True
        try:
            exec(compile(source, path, "exec"), module.__dict__)
        finally:
            recorder.active = False
            if previous is not None:
                sys.modules[name] = previous
            else:
                sys.modules.pop(name, None)
    except BaseException as exc:  # noqa: B902 - the file's own failure is reported at its line
        if isinstance(exc, (KeyboardInterrupt, _driver.Interrupted)):
            raise
        line, col, _, _ = _driver._position(exc, path)
        message = exc.msg if isinstance(exc, SyntaxError) else _driver._message(exc)
        recorder.errors.append({"file": path, "entry": name, "line": line, "col": col, "message": message})
        return None
    # Its golden module may sit beside it (tests/ops/sigmoid/sigmoid_golden.py), or in the folder
    # of the operator (op/golden/op_golden.py beside op/tests/).
    also_under = (folder, _files.operator_folder(recorder.folder, folder))
    undo.extend(_hook_goldens(recorder, module, also_under=also_under))
    undo.extend(_hook_local_imports(recorder, tree, _code_roots(folder)))
    main = _kernel_maker.main_block(tree)
    by_main = _TestsCalledByMain()
    if main.body and not _files.runs_pytest_only(main):
        _run(recorder, f"{name}.__main__", _main_block_runner(main, path, module, by_main))
    for entry, thunk in list(_entry_points(module, recorder, by_main)):
        _run(recorder, f"{name}.{entry}", thunk)
    return module


def record(request):
    path = os.path.abspath(request["file"])
    source = request["source"]
    recorder = Recorder(path, source, os.path.abspath(request["out_dir"]), float(request.get("seconds", 120)))
    log = _driver._Log()
    saved = sys.stdout, sys.stderr, list(sys.argv), dict(os.environ)
    sys.stdout = sys.stderr = log
    undo = []
    try:
        try:
            tree = ast.parse(source, path)
        except SyntaxError as exc:
            return {
                "status": "error",
                "code": "import.syntax",
                "message": exc.msg,
                "line": exc.lineno or 1,
                "col": exc.offset or 1,
                "log": log.getvalue(),
            }
        sys.argv = [path]
        roots = _code_roots(recorder.folder)
        _driver.default_device()  # the environment is restored below
        recorder.entry = "import"
        recorder.active = True
        undo = _install(recorder, None)
        try:
            # Definitions first (the __main__ block is skipped: the module has the file's name),
            # so that the file's functions are hooked before its host code calls them.
            module = _driver._load(path, source)
        except BaseException as exc:  # noqa: B902 - the file's own failure is reported at its line
            if isinstance(exc, _driver.Interrupted):
                raise
            line, col, _, _ = _driver._position(exc, path)
            return {
                "status": "error",
                "code": "import.load",
                "message": _driver._message(exc),
                "line": line,
                "col": col,
                "log": log.getvalue(),
            }
        finally:
            recorder.active = False
        recorder.module = module
        # A test in a folder above imports the file as `_ops.sum_lstm`: this module too.
        for shorter in _files.shorter_names(path):
            sys.modules.setdefault(shorter, module)
        for u in reversed(undo):
            setattr(*u)
        undo = _install(recorder, module) + _hook_local_imports(recorder, tree, roots)
        kernels = _kernels(module, path, source)
        for kernel in kernels:
            fn = vars(module)[kernel["name"]]
            while isinstance(fn, JitFunction):
                fn = fn.fn
            recorder.loaded_state[kernel["name"]] = _read_state(fn)
        main = _kernel_maker.main_block(tree)
        by_main = _TestsCalledByMain()
        if main.body and not _files.runs_pytest_only(main):
            _run(recorder, "__main__", _main_block_runner(main, path, module, by_main))
        for name, thunk in list(_entry_points(module, recorder, by_main)):
            _run(recorder, name, thunk)
        hosts = {path: (source, module)}
        loaded_by_the_file = set(sys.modules)
        # Kernels the file's own code never called: its tests may live beside it (test_<file>.py).
        wanted = {k["name"] for k in kernels} | _files.jit_defs(tree)
        # A test of a tests/ tree mirroring the sources imports the file by a dotted name of its
        # own (`experimental.vector.sigmoid.sigmoid_impl`): this module too.
        mirrored = _files.mirrored_folders(path)  # walked once: the tests/ trees above the file
        mirror_names = set(_files.mirror_module_names(path, mirrored))
        for test_path, test_source in _files.sibling_tests(path, source, wanted, mirrored):
            if all(name in recorder.signatures for name in wanted):
                break
            try:
                imported = _files.imported_modules(ast.parse(test_source, test_path))
            except (SyntaxError, ValueError, RecursionError):
                imported = set()  # reported at its line when the test is run
            for alias in sorted(imported & mirror_names):
                sys.modules.setdefault(alias, module)
            test_module = _run_test_file(recorder, test_path, test_source, undo)
            if test_module is not None:
                hosts[test_path] = (test_source, test_module)
        # Still not called: a function of the file, or of a test file beside it, that needs no
        # argument and builds or calls the kernel, maybe through other functions, runs too (a
        # worker script's `pack_static_add()`, which its argv dispatch runs; a skipped test's
        # `te_prefill()` that calls the test with the flag that picks the kernel).
        for host_path, (host_source, host_module) in hosts.items():
            unrecorded = {name for name in wanted if name not in recorder.signatures}
            if not unrecorded:
                break
            recorder.host(host_path, host_source)
            prefix = "" if host_path == path else host_module.__name__ + "."
            for name in _files.callers_of(ast.parse(host_source, host_path), unrecorded):
                if isinstance(vars(host_module).get(name), types.FunctionType):
                    _run(recorder, prefix + name, vars(host_module)[name])
        recorder.host(path, source)
        kernels += _made_kernels(recorder, module, source)
        kernels += _made_uncalled(recorder, module, source, {k["name"] for k in kernels})
        kernels += _test_kernels(recorder, {k["name"] for k in kernels})
        golden_sources = {}
        for name in sorted({g["function"] for g in recorder.goldens}):
            where = next(g["file"] for g in recorder.goldens if g["function"] == name)
            host_source, host_module = hosts.get(where) or _defining_module(where) or (source, module)
            try:
                golden_sources[name] = _annotated_source(host_source, [name], recorder.goldens, vars(host_module))
            except (SyntaxError, ValueError, RecursionError):
                continue
        # Real files only: the worker's own modules have names like "<ptowb>/_ptowb_driver.py",
        # which a relative reading would place in the current folder.
        # Modules a test file brought in are not the kernel's, unless the kernel file imports them
        # (a test file among them: the kernel takes its configs from the test that calls it).
        imported = _files.imported_names(tree)
        # Each at the path its import name gives below the folder it was found from: beside the
        # kernel (`_ops/rope_golden.py` for `_ops.rope_golden`), or, for a file of a package, at
        # its path below the package root (`kirin/common.py` for `kirin.common`).
        module_root = _driver.package_root(recorder.folder)
        local = {}
        for key, m in list(sys.modules.items()):
            where = getattr(m, "__file__", None)
            if (
                isinstance(where, str)
                and (key in loaded_by_the_file or key.split(".")[0] in imported)
                and (where not in hosts or key.split(".")[0] in imported)
                and os.path.isabs(where)
                and os.path.isfile(where)
                and where.startswith(module_root + os.sep)
                and where != path
            ):
                named = os.path.join(*key.split(".")) + (
                    os.sep + "__init__.py" if os.path.basename(where) == "__init__.py" else ".py"
                )
                relative = named if where.endswith(os.sep + named) else os.path.relpath(where, recorder.folder)
                local.setdefault(relative, where)
        for g in recorder.goldens:
            for r in g["results"]:
                if r:
                    r.pop("id", None)
        recorder.settle_repeats()
        if recorder.not_run:
            recorder.errors.append(
                {
                    "entry": "import",
                    "line": 1,
                    "col": 1,
                    "message": f"not run, import's time ({recorder.seconds:g} s) was up: "
                    + ", ".join(recorder.not_run)
                    + " (--time-limit gives more)",
                }
            )
        return {
            "status": "ok",
            "test_files": [h for h in hosts if h != path],
            "kernels": kernels,
            "calls": recorder.calls,
            "goldens": recorder.goldens,
            "compares": recorder.compares,
            "errors": recorder.errors,
            "golden_sources": golden_sources,
            "local_modules": [{"file": f, "path": p} for p, f in sorted(local.items())],
            # A file of a package that imports its siblings relatively (`from .common import x`)
            # keeps its path below the package root, so that its package comes with it.
            "kernel_path": os.path.relpath(path, module_root) if _files.imports_relatively(tree) else "",
            "log": log.getvalue(),
        }
    finally:
        for u in reversed(undo):
            setattr(*u)
        sys.stdout, sys.stderr = saved[0], saved[1]
        sys.argv = saved[2]
        os.environ.clear()
        os.environ.update(saved[3])


def request(line):
    """The worker's entry: one JSON request in, one JSON answer out."""
    import json

    return json.dumps(record(json.loads(line)))
