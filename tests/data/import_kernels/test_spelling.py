"""Expected values spelled as PyPTO's tests spell them: a transposed operand as `.T`, with the
kernel given a format-cast view of the tensor the expected value is written over; a unary plus."""
import torch
import torch_npu

import pypto


@pypto.frontend.jit
def transposed_product(
    a: pypto.Tensor([pypto.STATIC, pypto.STATIC], pypto.DT_FP16),
    b: pypto.Tensor([pypto.STATIC, pypto.STATIC], pypto.DT_FP16),
    out: pypto.Tensor([pypto.STATIC, pypto.STATIC], pypto.DT_FP32),
):
    pypto.set_cube_tile_shapes([16, 16], [16, 16], [16, 16])
    out[:] = pypto.matmul(a, b, a_trans=True, out_dtype=pypto.DT_FP32)


@pypto.frontend.jit
def plus_one(x: pypto.Tensor([pypto.STATIC], pypto.DT_FP32), y: pypto.Tensor([pypto.STATIC], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(16)
    y.move(+x + 1.0)


def test_transposed_product():
    a = torch.rand([24, 8], dtype=torch.float16)
    b = torch.rand([24, 16], dtype=torch.float16)
    out = torch.zeros([8, 16], dtype=torch.float32)
    golden = torch.matmul(a.to(torch.float32).T, b.to(torch.float32))
    transposed_product(torch_npu.npu_format_cast(a, 29), b, out)
    assert torch.allclose(out.cpu(), golden.cpu(), atol=1e-3, rtol=1e-3)


def test_plus_one():
    x = torch.rand([32], dtype=torch.float32)
    y = torch.empty([32], dtype=torch.float32)
    plus_one(x, y)
    expected = +x.cpu() + 1.0
    torch.testing.assert_close(y.cpu(), expected)
