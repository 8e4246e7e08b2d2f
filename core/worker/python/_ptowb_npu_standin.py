"""A CPU stand-in for torch_npu, for interpreters without a real one.

PyPTO's kernels and their host code import torch_npu at module level, put tensors on "npu:N",
set the device and synchronize; on a workbench without an NPU all of that should simply act on
the CPU. install() arranges that, lazily: `import torch_npu` gives the stand-in, and once torch
is imported (by the kernel, or already) `torch.npu` exists and "npu" devices mean the CPU. A call
that has no CPU meaning (an NPU-only fused op, graph capture, core limits) raises an error that
names it. Where a real torch_npu is importable nothing is installed and it is used untouched.

What "npu" becomes:
- torch factories (torch.empty/zeros/ones/rand/randn/randint/full/tensor/arange/..._like, ...),
  Tensor.to / new_* and nn.Module.to with device "npu", "npu:N" or an npu torch.device: the CPU;
  torch.rand/randn(_like) of an integer dtype on "npu" (the CPU has no such draw): floats drawn,
  converted to the dtype;
- Tensor.npu() and nn.Module.npu(): the object itself (it is on the CPU already);
- torch.device("npu:0"): a valid device on torch 2.x (its PrivateUse1 backend is named "npu"); torch
  1.13 cannot name a device "npu", so there it stays torch's own error;
- the result of torch_npu.npu_format_cast: on torch 2.x a tensor whose `device` says npu, so that
  host code that asks for the format of NPU tensors only finds it.

torch_npu's quantization calls compute on the CPU what its reference says (_ptowb_npu_quant.py);
torch.library operators registered for the NPU run on the CPU (_ptowb_npu_library.py).
"""
import contextlib
import enum
import functools
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import time
import types

import _ptowb_npu_library
import _ptowb_npu_quant

_VERSION = "0.0.0+cpu.standin"
_NO_NPU = _ptowb_npu_quant.NO_NPU


def unavailable(name):
    """A torch_npu function with no CPU meaning: calling it says so."""

    def call(*args, **kwargs):
        raise RuntimeError(f"{name} {_NO_NPU}")

    call.__name__ = name.rpartition(".")[2]
    call.__qualname__ = call.__name__
    return call


class _StandinModule(types.ModuleType):
    """A stand-in module: a name it lacks is an AttributeError that says why."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        if name.startswith("npu_"):
            # torch_npu's fused ops: a kernel file may name one at module level and never call it.
            fn = unavailable(f"{self.__name__}.{name}")
            setattr(self, name, fn)
            return fn
        raise AttributeError(f"{self.__name__}.{name} {_NO_NPU}")


# --- "npu" devices mean the CPU ---


def _is_npu(device):
    if isinstance(device, str):
        return device == "npu" or device.startswith("npu:")
    if isinstance(device, int) and not isinstance(device, bool):
        # A bare index is the current accelerator: with torch_npu the NPU (PyPTO's tests write
        # `torch.npu.set_device(d)`, then `device=d`), unless this torch has CUDA of its own.
        return not _has_cuda()
    return getattr(device, "type", None) == "npu" and type(device).__name__ == "device"


def _has_cuda():
    try:
        import torch

        return bool(torch.cuda.is_available())
    except Exception:  # noqa: BLE001 - no usable CUDA
        return False


def _on_cpu(fn, method_to=False):
    """fn with an npu `device=` on the CPU; for Tensor.to and Module.to (method_to) also an npu
    device among the positional arguments after self."""

    uniform = getattr(fn, "__name__", "") in _UNIFORM_FACTORIES

    @functools.wraps(fn)
    def call(*args, **kwargs):
        device = kwargs.get("device")
        if device is not None and _is_npu(device):
            kwargs["device"] = "cpu"
            dtype = kwargs.get("dtype")
            if uniform and dtype is not None and not (dtype.is_floating_point or dtype.is_complex):
                # Tests make int32 output buffers so on an NPU, so torch_npu accepts it; the CPU
                # refuses: draw floats and convert them to the dtype.
                kwargs["dtype"] = None
                return fn(*args, **kwargs).to(dtype)
        if method_to:
            for k in range(1, min(len(args), 4)):
                if _is_npu(args[k]):
                    args = args[:k] + ("cpu",) + args[k + 1 :]
                    break
        return fn(*args, **kwargs)

    call._ptowb_npu_standin = True
    return call


# Random fills the CPU has only for floating dtypes.
_UNIFORM_FACTORIES = ("rand", "randn", "rand_like", "randn_like")
_TORCH_FACTORIES = (
    "tensor",
    "as_tensor",
    "asarray",
    "scalar_tensor",
    "empty",
    "empty_like",
    "empty_strided",
    "empty_permuted",
    "zeros",
    "zeros_like",
    "ones",
    "ones_like",
    "full",
    "full_like",
    "rand",
    "rand_like",
    "randn",
    "randn_like",
    "randint",
    "randint_like",
    "randperm",
    "arange",
    "range",
    "linspace",
    "logspace",
    "eye",
    "tril_indices",
    "triu_indices",
    "normal",
    "sparse_coo_tensor",
)
_TENSOR_FACTORIES = ("new_empty", "new_zeros", "new_ones", "new_full", "new_tensor", "new_empty_strided")


def _sorted_topk(fn):
    """torch.topk with sorted=False gives its k elements in an order torch leaves open; the CPU's
    is not that of a sorted kernel result, which host code written for the NPU compares position
    by position (glm's select_experts). Sorted is one of the orders sorted=False allows."""

    @functools.wraps(fn)
    def call(*args, **kwargs):
        # `sorted` is the fifth argument of torch.topk(input, ...) and Tensor.topk(self, ...).
        if "sorted" in kwargs:
            kwargs["sorted"] = True
        elif len(args) > 4:
            args = args[:4] + (True,) + args[5:]
        return fn(*args, **kwargs)

    call._ptowb_npu_standin = True
    return call


def _register_builtin(wrapper, original):
    """Keeps TorchScript seeing a wrapped torch function as the aten op it wraps."""
    try:
        from torch.jit import _builtins

        name = _builtins._find_builtin(original)
        if name is not None:
            _builtins._register_builtin(wrapper, name)
    except Exception:  # noqa: BLE001 - TorchScript's private table differs between versions
        pass


def _patch_torch(torch):
    if getattr(torch, "_ptowb_npu_standin", False):
        return
    torch._ptowb_npu_standin = True
    if hasattr(torch.utils, "rename_privateuse1_backend"):
        try:
            if torch._C._get_privateuse1_backend_name() == "privateuseone":
                torch.utils.rename_privateuse1_backend("npu")
        except Exception:  # noqa: BLE001 - an older or a customised torch: "npu" stays unnamed
            pass
    for name in _TORCH_FACTORIES:
        original = getattr(torch, name, None)
        if original is not None and not getattr(original, "_ptowb_npu_standin", False):
            wrapper = _on_cpu(original)
            _register_builtin(wrapper, original)
            setattr(torch, name, wrapper)
    for name in _TENSOR_FACTORIES:
        original = getattr(torch.Tensor, name, None)
        if original is not None:
            setattr(torch.Tensor, name, _on_cpu(original))
    torch.Tensor.to = _on_cpu(torch.Tensor.to, method_to=True)
    original_topk = torch.topk
    torch.topk = _sorted_topk(original_topk)
    _register_builtin(torch.topk, original_topk)
    torch.Tensor.topk = _sorted_topk(torch.Tensor.topk)
    torch.Tensor.npu = lambda self, device=None, non_blocking=False, **kwargs: self
    torch.Tensor.is_npu = property(lambda self: False)
    torch.nn.Module.to = _on_cpu(torch.nn.Module.to, method_to=True)
    torch.nn.Module.npu = lambda self, device=None: self
    npu = _npu_module(torch)
    torch.npu = npu
    sys.modules["torch.npu"] = npu
    _ptowb_npu_library.patch(torch)


# --- torch.npu / torch_npu.npu ---


class _State:
    device = 0
    capturing = 0  # open NPUGraph captures (torch.npu.graph or capture_begin)


def _device_index(device):
    if device is None:
        return _State.device
    if isinstance(device, int):
        return device
    if isinstance(device, str):
        _, _, index = device.partition(":")
        return int(index) if index else 0
    index = getattr(device, "index", None)
    return _State.device if index is None else index


class Event:
    """An event times the host: on the CPU every call has finished when it returns."""

    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        self._time = None

    def record(self, stream=None):
        self._time = time.perf_counter()

    def wait(self, stream=None):
        pass

    def query(self):
        return True

    def synchronize(self):
        pass

    def elapsed_time(self, end_event):
        return (end_event._time - self._time) * 1000.0


class Stream:
    """A stream on the CPU: work runs in order and is done when a call returns."""

    def __init__(self, device=None, priority=0, **kwargs):
        self.device_index = _device_index(device)
        self.priority = priority

    def synchronize(self):
        pass

    def query(self):
        return True

    def wait_stream(self, stream):
        pass

    def wait_event(self, event):
        pass

    def record_event(self, event=None):
        event = event or Event()
        event.record(self)
        return event


_DEFAULT_STREAM = Stream()


def _npu_module(torch):
    npu = _StandinModule("torch_npu.npu", "torch.npu without an NPU: devices are the CPU")

    def set_device(device):
        _State.device = _device_index(device)

    def manual_seed(seed):
        # Tensors meant for the NPU are made on the CPU, so its generator is the one to seed. Not
        # through torch.manual_seed: on torch 2.x that seeds "npu" too, by calling this.
        torch.default_generator.manual_seed(int(seed))

    @contextlib.contextmanager
    def stream(s=None):
        yield s

    npu.__dict__.update(
        is_available=lambda: False,
        is_initialized=lambda: False,
        device_count=lambda: 0,
        current_device=lambda: _State.device,
        set_device=set_device,
        synchronize=lambda device=None: None,
        get_device_name=lambda device=None: "CPU (no NPU: torch_npu's calls run on the CPU)",
        empty_cache=lambda: None,
        memory_allocated=lambda device=None: 0,
        memory_reserved=lambda device=None: 0,
        max_memory_allocated=lambda device=None: 0,
        max_memory_reserved=lambda device=None: 0,
        reset_peak_memory_stats=lambda device=None: None,
        manual_seed=manual_seed,
        manual_seed_all=manual_seed,
        _is_in_bad_fork=lambda: False,  # torch.manual_seed asks before it seeds "npu"
        initial_seed=torch.initial_seed,
        current_stream=lambda device=None: _DEFAULT_STREAM,
        default_stream=lambda device=None: _DEFAULT_STREAM,
        Stream=Stream,
        Event=Event,
        stream=stream,
        is_current_stream_capturing=lambda: _State.capturing > 0,
        config=types.SimpleNamespace(allow_internal_format=False),
        NPUGraph=NPUGraph,
        graph=_graph,
        get_device_properties=unavailable("torch_npu.npu.get_device_properties"),
        get_soc_version=unavailable("torch_npu.npu.get_soc_version"),
        set_device_limit=unavailable("torch_npu.npu.set_device_limit"),
        set_stream_limit=unavailable("torch_npu.npu.set_stream_limit"),
    )
    return npu


class NPUGraph:
    """torch.npu.NPUGraph on the CPU. With no device to defer work to, what runs inside the capture
    runs at once, so after the first replay() the outputs hold what one replay gives on an NPU. A
    second replay would run the captured work again with the inputs of then: that is not available."""

    def __init__(self, *args, **kwargs):
        self._state = "new"

    def capture_begin(self, *args, **kwargs):
        if self._state != "new":
            raise RuntimeError("torch_npu.npu.NPUGraph.capture_begin(): this graph was captured already")
        self._state = "capturing"
        _State.capturing += 1

    def capture_end(self):
        if self._state == "capturing":
            _State.capturing -= 1
        self._state = "captured"

    def replay(self):
        if self._state == "captured":
            self._state = "replayed"
        elif self._state == "replayed":
            raise RuntimeError(
                f"torch_npu.npu.NPUGraph.replay() a second time {_NO_NPU}: its work ran once, at capture"
            )
        else:
            raise RuntimeError("torch_npu.npu.NPUGraph.replay(): nothing was captured")

    def reset(self):
        self._state = "new"

    def pool(self):
        return None


@contextlib.contextmanager
def _graph(npu_graph, pool=None, stream=None, *args, **kwargs):
    npu_graph.capture_begin()
    try:
        yield npu_graph
    finally:
        npu_graph.capture_end()


def _unavailable_class(name):
    def __init__(self, *args, **kwargs):
        raise RuntimeError(f"{name} {_NO_NPU}")

    return type(name.rpartition(".")[2], (), {"__init__": __init__})


# --- torch_npu ---


class Format(enum.IntEnum):
    """torch_npu.Format: the storage formats of an NPU tensor (ACL's numbering)."""

    UNDEFINED = -1
    NCHW = 0
    NHWC = 1
    ND = 2
    NC1HWC0 = 3
    FRACTAL_Z = 4
    NC1HWC0_C04 = 12
    HWCN = 16
    NDHWC = 27
    FRACTAL_NZ = 29
    NCDHW = 30
    NDC1HWC0 = 32
    FRACTAL_Z_3D = 33
    NC = 35
    NCL = 47


class _NpuOnlyDtype:
    """An NPU dtype torch has no CPU counterpart of (torch_npu.hifloat8)."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch_npu.{self.name}"


hifloat8 = _NpuOnlyDtype("hifloat8")


@functools.lru_cache(maxsize=None)
def _npu_resident_class(torch):
    class NpuResident(torch.Tensor):
        __torch_function__ = torch._C._disabled_torch_function_impl
        device = property(lambda self: torch.device("npu", _State.device))
        is_npu = property(lambda self: True)

    return NpuResident


def _as_npu_resident(torch, tensor):
    """The tensor, typed so that its `device` says npu. Host code asks torch_npu for a tensor's
    storage format only when it is on the NPU (`if t.device.type == "npu": get_npu_format(t)`), so
    a tensor given a format must say where it would live. Its values stay on the CPU, and what torch
    computes from it is a plain CPU tensor again. torch 1.13 cannot name an "npu" device: there
    the tensor stays as it is."""
    try:
        torch.device("npu")
    except RuntimeError:
        return tensor
    return tensor.as_subclass(_npu_resident_class(torch))


def _torch_npu_module(torch):
    module = _StandinModule("torch_npu", __doc__)
    module.__version__ = _VERSION
    module.__path__ = []  # a package, so `import torch_npu.npu` and `from torch_npu import npu` work
    module.npu = torch.npu

    def npu_format_cast(self, acl_format):
        # On the NPU only the storage layout changes; the values, and so the CPU tensor, do not.
        out = _as_npu_resident(torch, self.view_as(self))
        out._ptowb_npu_format = int(acl_format)
        return out

    def npu_format_cast_(self, acl_format):
        self._ptowb_npu_format = int(acl_format)
        return self

    def get_npu_format(self):
        return getattr(self, "_ptowb_npu_format", int(Format.ND))

    def npu_dtype_cast(input, dtype, input_dtype=None):
        for d in (dtype, input_dtype):
            if isinstance(d, _NpuOnlyDtype):
                raise RuntimeError(f"torch_npu.npu_dtype_cast to or from torch_npu.{d.name} {_NO_NPU}")
        return input.to(dtype)

    def npu_rms_norm(self, gamma, epsilon=1e-06):
        # y = x / sqrt(mean(x^2) + eps) * gamma over the dims gamma covers; rstd in float32.
        dims = tuple(range(-gamma.dim(), 0))
        x = self.float()
        rstd = torch.rsqrt(x.pow(2).mean(dim=dims, keepdim=True) + epsilon)
        return (x * rstd * gamma.float()).to(self.dtype), rstd

    def npu_swiglu(input, dim=-1):
        # silu of the first half along dim, times the second half.
        a, b = input.chunk(2, dim=dim)
        return (torch.nn.functional.silu(a.float()) * b.float()).to(input.dtype)

    def npu_rotary_mul(input, r1, r2, rotary_mode="half"):
        if rotary_mode != "half":
            raise RuntimeError(f"torch_npu.npu_rotary_mul with rotary_mode={rotary_mode!r} {_NO_NPU}")
        x1, x2 = input.chunk(2, dim=-1)
        return input * r1 + torch.cat((-x2, x1), dim=-1) * r2

    module.__dict__.update(
        Format=Format,
        hifloat8=hifloat8,
        npu_format_cast=npu_format_cast,
        npu_format_cast_=npu_format_cast_,
        get_npu_format=get_npu_format,
        npu_dtype_cast=npu_dtype_cast,
        npu_rms_norm=npu_rms_norm,
        npu_swiglu=npu_swiglu,
        npu_rotary_mul=npu_rotary_mul,
        npu_dynamic_quant=_ptowb_npu_quant.npu_dynamic_quant,
        npu_quantize=_ptowb_npu_quant.npu_quantize,
        npu_quant_matmul=_ptowb_npu_quant.npu_quant_matmul,
        profiler=_profiler_module(),
    )
    return module


def _profiler_module():
    """torch_npu.profiler: its settings exist, so module-level configuration loads; profiling itself
    needs the NPU."""
    profiler = _StandinModule("torch_npu.profiler", "torch_npu.profiler without an NPU")

    def settings(name, *members):
        return enum.Enum(name, [(m, m) for m in members])

    profiler.__dict__.update(
        ProfilerActivity=settings("ProfilerActivity", "CPU", "NPU"),
        ProfilerLevel=settings("ProfilerLevel", "Level_none", "Level0", "Level1", "Level2"),
        ExportType=settings("ExportType", "Text", "Db"),
        AiCMetrics=settings(
            "AiCMetrics",
            "AiCoreNone",
            "PipeUtilization",
            "ArithmeticUtilization",
            "Memory",
            "MemoryL0",
            "MemoryUB",
            "ResourceConflictRatio",
            "L2Cache",
            "MemoryAccess",
        ),
        schedule=lambda *args, **kwargs: None,
        tensorboard_trace_handler=lambda *args, **kwargs: None,
        _ExperimentalConfig=lambda *args, **kwargs: None,
        profile=_unavailable_class("torch_npu.profiler.profile"),
    )
    return profiler


# --- installation ---


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Gives `import torch_npu` the stand-in, and patches torch when it is first imported."""

    def find_spec(self, name, path=None, target=None):
        if name in ("torch_npu", "torch_npu.npu", "torch_npu.profiler"):
            return importlib.machinery.ModuleSpec(name, self, is_package=name == "torch_npu")
        if name == "torch" and "torch" not in sys.modules:
            spec = importlib.machinery.PathFinder.find_spec(name, path)
            if spec is not None and spec.loader is not None:
                spec.loader = _AfterTorch(spec.loader)
            return spec
        return None

    def create_module(self, spec):
        import torch

        _patch_torch(torch)
        root = sys.modules.get("torch_npu") or _torch_npu_module(torch)
        if spec.name == "torch_npu":
            return root
        return getattr(root, spec.name.rpartition(".")[2])

    def exec_module(self, module):
        pass


class _AfterTorch(importlib.abc.Loader):
    """torch's own loader, then the patch."""

    def __init__(self, loader):
        self.loader = loader

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        self.loader.exec_module(module)
        _patch_torch(module)

    def __getattr__(self, name):
        return getattr(self.loader, name)


def install():
    """Installs the stand-in unless a real torch_npu is importable; True when it did."""
    if any(isinstance(f, _Finder) for f in sys.meta_path):
        return True
    try:
        real = importlib.util.find_spec("torch_npu") is not None
    except (ImportError, ValueError):
        real = False
    if real:
        return False
    sys.meta_path.insert(0, _Finder())
    if "torch" in sys.modules:
        _patch_torch(sys.modules["torch"])
    return True
