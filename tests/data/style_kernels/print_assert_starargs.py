"""assert, print, and a helper taking *dims."""
import pypto


def tile_for(*dims):
    return [min(d, 32) for d in dims]


@pypto.frontend.jit(debug_options={"compile_debug_mode": 1})
def kernel(x: pypto.Tensor[...], y: pypto.Tensor[...]):
    assert len(x.shape) == 2, "2-D only"
    pypto.set_vec_tile_shapes(*tile_for(*x.shape))
    print("kernel shape", x.shape)
    y[:] = pypto.where(x > 0.0, x, 0.0)
