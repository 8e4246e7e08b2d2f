# Golden functions as kernel authors write them: every operator they compile to must be on the
# reference's allow-list (tst_reference_check compiles the whole file through the checker).
import math
import torch
import torch.nn.functional as F
from torch import Tensor
from typing import List, Optional, Tuple


def typical_reference(x: Tensor) -> Tensor:
    return x


def layer_norm(x: Tensor, gamma: Tensor, beta: Tensor, eps: float) -> Tensor:
    x32 = x.to(torch.float32)
    mean = x32.mean(dim=-1, keepdim=True)
    var = x32.var(dim=-1, unbiased=False, keepdim=True)
    y = (x32 - mean) / torch.sqrt(var + eps)
    return (y * gamma.float() + beta.float()).to(x.dtype)


def layer_norm_functional(x: Tensor, gamma: Tensor, beta: Tensor, eps: float) -> Tensor:
    return F.layer_norm(x.float(), [x.shape[-1]], gamma.float(), beta.float(), eps).type_as(x)


def rms_norm(x: Tensor, weight: Tensor, eps: float) -> Tensor:
    x32 = x.float()
    rms = torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + eps)
    return (x32 * rms * weight.float()).type_as(x)


def softmax(x: Tensor, dim: int) -> Tensor:
    m = x.amax(dim=dim, keepdim=True)
    e = torch.exp(x - m)
    return e / e.sum(dim=dim, keepdim=True)


def softmax_functional(x: Tensor) -> Tuple[Tensor, Tensor]:
    return F.softmax(x, dim=-1), torch.log_softmax(x.double(), -1).to(x.dtype)


def attention(q: Tensor, k: Tensor, v: Tensor, mask: Tensor, causal: bool) -> Tensor:
    scale = 1.0 / math.sqrt(q.shape[-1])
    scores = torch.matmul(q, k.transpose(-2, -1)) * scale
    if causal:
        n = scores.size(-1)
        upper = torch.triu(torch.ones(n, n, dtype=torch.bool, device=q.device), diagonal=1)
        scores = scores.masked_fill(upper, float("-inf"))
    scores = torch.where(mask == 0, torch.full_like(scores, -1e9), scores)
    probs = torch.softmax(scores.float(), dim=-1).to(q.dtype)
    return probs @ v


def attention_batched(q: Tensor, k: Tensor, v: Tensor) -> Tensor:
    b, h, s, d = q.shape
    scores = torch.bmm(q.reshape(b * h, s, d), k.reshape(b * h, s, d).permute(0, 2, 1))
    probs = F.softmax(scores / math.sqrt(d), dim=-1)
    out = torch.einsum("nst,ntd->nsd", probs, v.reshape(b * h, s, d))
    return out.view(b, h, s, d).contiguous()


def gelu_tanh(x: Tensor) -> Tensor:
    c = math.sqrt(2.0 / math.pi)
    return 0.5 * x * (1.0 + torch.tanh(c * (x + 0.044715 * torch.pow(x, 3))))


def activations(x: Tensor) -> List[Tensor]:
    return [F.gelu(x, approximate="tanh"), F.silu(x), torch.sigmoid(x), F.relu(x), F.leaky_relu(x, 0.1),
            torch.erf(x), F.softplus(x), x.clamp(min=-1.0, max=1.0), torch.clamp(x, 0.0), x.abs().neg(),
            torch.nn.functional.hardtanh(x), F.elu(x), torch.tanh(x)]


def rope(x: Tensor, cos: Tensor, sin: Tensor) -> Tensor:
    half = x.shape[-1] // 2
    x1 = x[..., :half]
    x2 = x[..., half:]
    rotated = torch.cat((-x2, x1), dim=-1)
    return x * cos + rotated * sin


def rope_interleaved(x: Tensor, theta: float) -> Tensor:
    seq, dim = x.shape[-2], x.shape[-1]
    inv = 1.0 / (theta ** (torch.arange(0, dim, 2, dtype=torch.float32) / dim))
    angles = torch.outer(torch.arange(seq, dtype=torch.float32), inv)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.stack((even * angles.cos() - odd * angles.sin(), even * angles.sin() + odd * angles.cos()), dim=-1)
    return out.flatten(-2)


def matmul_bias(a: Tensor, b: Tensor, bias: Optional[Tensor]) -> Tensor:
    out = torch.mm(a.float(), b.float().t())
    if bias is not None:
        out = out + bias
    return F.linear(a, b) if a.dim() == 2 else out


def shapes(x: Tensor, idx: Tensor, dims: List[int]) -> Tensor:
    parts = torch.chunk(x, 2, dim=0)
    pieces = x.split(1, dim=-1)
    y = torch.stack([parts[0], parts[1]]).squeeze(0).unsqueeze(-1)
    z = x.index_select(0, idx) + torch.gather(x, 1, idx.unsqueeze(-1).expand(-1, x.size(1)))
    w = x.permute(dims).reshape(-1).flatten().expand_as(x.reshape(-1))
    total = torch.zeros_like(x)
    for i in range(len(pieces)):
        total += pieces[i]
    ones = torch.ones([2, 3], dtype=torch.float16) + torch.full([2, 3], 2.0) + torch.arange(6).view(2, 3)
    n = int(x.numel()) + len(dims)
    return y + z + w + total + ones.sum() * float(n) + x.narrow(0, 0, 1).select(1, 0).sum()


def reductions(x: Tensor) -> Tensor:
    a = x.sum(dim=[0, 1]) + x.mean() + x.max() + x.min() + x.amin() + x.prod(dim=0).sum()
    b = torch.argmax(x, dim=-1).float() + x.var() + x.std() + torch.logsumexp(x, dim=0).sum()
    c = torch.cumsum(x, dim=0) + torch.norm(x) + (x > 0).any().float() + (x < 0).all().float()
    values, indices = torch.topk(x, 2, dim=-1)
    return a + b + c + values.sum() + indices.sum() + torch.max(x, dim=-1)[0].sum()


def guards(x: Tensor, mode: str, scale: float) -> Tensor:
    assert x.dim() == 2, "expected a 2-D tensor, got {} dimensions".format(x.dim())
    assert x.shape[0] > 0, "empty"
    if mode == "half" and x.dtype == torch.float16:
        scale = scale * 0.5
    y = torch.where(torch.isnan(x), torch.zeros_like(x), x)
    y[0, :] = 1.0
    y.masked_fill_(y < -100.0, 0.0)
    return y * scale + x.new_zeros(x.shape) + torch.empty_like(x).fill_(0.0)


def mutate(x: Tensor, cache: Tensor, pos: int) -> Tensor:
    cache[pos] = x
    cache.add_(1.0)
    cache.copy_(cache * 2)
    return cache.clone()
