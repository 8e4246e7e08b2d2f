"""The scale tests of device A: the kernels come from the package's common module."""
import pytest

from scale_ops.common_scale import CASES, make_kernels

KERNELS = make_kernels("device_a")


@pytest.mark.parametrize("name,torch_dtype,pypto_dtype,tiles,shape", CASES)
def test_scale(name, torch_dtype, pypto_dtype, tiles, shape):
    from scale_ops.common_scale import run_scale_test

    run_scale_test(KERNELS, name, torch_dtype, shape)
