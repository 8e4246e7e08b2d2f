"""torch_npu's quantization calls on the CPU, for the stand-in (_ptowb_npu_standin.py).

Host code builds its golden with them (PyPTO's glm models quantize per token, multiply int8
matrices and dequantize), so each computes what torch_npu's API reference says it computes:

- npu_dynamic_quant(x, *, smooth_scales=None): per-token symmetric int8 quantization. Each row
  (the last dim) of x (times smooth_scales) gets scale = max|row| / 127 and y = round(row / scale);
  returns (y int8, scale float32 of x's shape without its last dim).
- npu_quantize(x, scales, zero_points, dtype, axis=1, div_mode=True): y = round(x / scales +
  zero_points), or x * scales with div_mode False, saturated to int8 (qint8) / uint8 (quint8).
- npu_quant_matmul(x1, x2, scale, *, offset=None, pertoken_scale=None, bias=None,
  output_dtype=None): the int8 product accumulated exactly, an int32 bias added to it, times scale
  (per output channel) and pertoken_scale (per row), a bfloat16 bias added after, cast to
  float16/bfloat16.

Rounding is to nearest, ties to even, as the NPU's conversion to int8 rounds. What the reference
describes but these do not compute (int4 outputs, a scale packed into int64, an int8 requantized
result, MoE group indices) raises an error that names it.
"""


# The error of a call the stand-in cannot compute (the stand-in's own calls say the same).
NO_NPU = "is not available without an NPU (the workbench runs torch_npu's calls on the CPU)"


def _unsupported(what):
    return RuntimeError(f"torch_npu.{what} {NO_NPU}")


def _saturate(torch, values, dtype):
    info = torch.iinfo(dtype)
    return torch.round(values).clamp(info.min, info.max).to(dtype)


def npu_dynamic_quant(x, *, smooth_scales=None, group_index=None, dst_type=None):
    import torch

    if group_index is not None:
        raise _unsupported("npu_dynamic_quant with group_index")
    if dst_type not in (None, torch.int8):
        raise _unsupported(f"npu_dynamic_quant to {dst_type}")
    if x.dim() < 2:
        raise RuntimeError(f"torch_npu.npu_dynamic_quant: x must have 2 or more dims, not {x.dim()}")
    rows = x.float()
    if smooth_scales is not None:
        rows = rows * smooth_scales.float()
    scale = rows.abs().amax(dim=-1) / 127.0
    safe = torch.where(scale == 0, torch.ones_like(scale), scale)
    return _saturate(torch, rows / safe.unsqueeze(-1), torch.int8), scale


def npu_quantize(input, scales, zero_points, dtype, axis=1, div_mode=True):
    import torch

    targets = {torch.qint8: torch.int8, torch.quint8: torch.uint8, torch.int8: torch.int8, torch.uint8: torch.uint8}
    if dtype not in targets:
        raise _unsupported(f"npu_quantize to {dtype}")

    def along_axis(t):
        # A 1-d scale or offset runs along `axis`; the other dims broadcast.
        if t.dim() != 1:
            return t.float()
        shape = [1] * input.dim()
        shape[axis] = t.numel()
        return t.float().reshape(shape)

    x = input.float()
    values = x / along_axis(scales) if div_mode else x * along_axis(scales)
    if zero_points is not None:
        values = values + along_axis(zero_points)
    return _saturate(torch, values, targets[dtype])


def npu_quant_matmul(x1, x2, scale, *, offset=None, pertoken_scale=None, bias=None, output_dtype=None):
    import torch

    if output_dtype not in (torch.float16, torch.bfloat16):
        raise _unsupported(f"npu_quant_matmul to {output_dtype or 'int8 (no output_dtype)'}")
    if x1.dtype != torch.int8 or x2.dtype != torch.int8:
        raise _unsupported(f"npu_quant_matmul of {x1.dtype} by {x2.dtype} (only int8 by int8 is computed)")
    if scale.dtype == torch.int64:
        raise _unsupported("npu_quant_matmul with an int64 scale (npu_trans_quant_param's packing)")
    if offset is not None:
        raise _unsupported("npu_quant_matmul with an offset")
    # Every int8 product and sum is exact in float64 (|sum| < 2^53 for any k under 2^38).
    acc = torch.matmul(x1.double(), x2.double())
    if bias is not None and bias.dtype == torch.int32:
        acc = acc + bias.double()
    out = acc.float() * scale.float()
    if pertoken_scale is not None:
        out = out * pertoken_scale.float().unsqueeze(-1)
    if bias is not None and bias.dtype != torch.int32:
        out = out + bias.float()
    return out.to(output_dtype)
