"""Ops and forms PyPTO added upstream, written the way PyPTO's own files write them."""
import torch
import torch_npu  # noqa: F401 - PyPTO's tests import it at module level

import pypto
import pypto.op
from pypto.tensor import TensorAnnotation

torch.npu.set_device(0)
DEVICE = f"npu:{torch.npu.current_device()}"
SCALE = torch.ones(1, device=DEVICE).item() * 0.5  # host code on the "NPU": the CPU here

ROWS_DEF = TensorAnnotation([pypto.DYNAMIC, ...], pypto.DT_FP32)
W_DEF = pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32)


@pypto.jit
def elementwise(a: ROWS_DEF, b: pypto.tensor(), y: pypto.Tensor([pypto.DYNAMIC, ...], pypto.DT_FP32),
                z: pypto.Tensor[...]):
    pypto.set_vec_tile_shapes(4, 16)
    x = pypto.clip(a, -0.9, 0.9)
    y[:] = pypto.op.add(pypto.asin(x) + pypto.acos(x) + pypto.tan(x) + pypto.erf(x), pypto.erfc(x)) \
        + pypto.atanh(x) + pypto.asinh(x) + pypto.acosh(pypto.abs(x) + 1.5) + pypto.cast(pypto.isnan(b), pypto.DT_FP32)
    copied = x.copy()
    assert not x.is_empty()
    z[:] = x.sinh() + x.cosh() + x.asinh() + (pypto.abs(x) + 1.5).acosh() + x.erfc() + copied


@pypto.jit
def data(a: pypto.Tensor[...], b: pypto.Tensor[...], pairs: pypto.Tensor[...], acc: pypto.Tensor[...],
         tri: pypto.Tensor[...]):
    pypto.set_vec_tile_shapes(4, 16)
    first, second = pypto.interleave(a, b)
    even, odd = pypto.deinterleave(first, second)
    single_even, single_odd = pypto.deinterleave(first)
    pairs[:] = pypto.concat([first, second, even, odd, single_even, single_odd], -1)
    acc[:] = b
    pypto.atomic_add(pypto.view(a, [2, 8], [0, 0]), [1, 4], acc)
    tri[:] = pypto.triu(a, 1) + pypto.tril(b, -1)


@pypto.frontend.jit()
def online_softmax(w: W_DEF, out: pypto.Tensor[...]):
    pypto.set_vec_tile_shapes(8, 16)
    exps, column_max, column_sum = pypto.experimental.online_softmax(w, SCALE)
    half = pypto.view(exps, [4, 16], [0, 0])
    rest = pypto.view(exps, [4, 16], [4, 0])
    top_out, top_max, top_sum = pypto.experimental.online_softmax(pypto.view(w, [4, 16], [0, 0]), SCALE)
    low_out, low_max, low_sum = pypto.experimental.online_softmax(pypto.view(w, [4, 16], [4, 0]), SCALE)
    merged_max, merged_sum, merged_out = pypto.experimental.online_softmax_update(
        top_max, top_sum, pypto.cast(top_out, pypto.DT_FP32), low_max, low_sum, pypto.cast(low_out, pypto.DT_FP32))
    out[:] = pypto.concat([column_max, column_sum, pypto.cast(half, pypto.DT_FP32), pypto.cast(rest, pypto.DT_FP32),
                           merged_max, merged_sum, merged_out], 0)


@pypto.jit
def pack_unpack(a: pypto.Tensor[...], bytes_out: pypto.Tensor[...], back: pypto.Tensor[...]):
    packed = pypto.pack(a)
    bytes_out[:] = packed
    back[:] = pypto.unpack(packed, pypto.DT_INT32)


@pypto.jit
def transposed_batchmatmul(a: pypto.Tensor([pypto.DYNAMIC, 2, 16], pypto.DT_FP16),
                           b: pypto.Tensor([2, 16, pypto.DYNAMIC], pypto.DT_FP16), c: pypto.Tensor[...]):
    c[:] = pypto.experimental.transposed_batchmatmul(a, b, pypto.DT_FP16)
