"""A kernel that takes its constants from the test that calls it (as deepseek_v32's lightning
indexer takes LightningIndexerConfigs from deepseekv32_lightning_indexer_quant.py): the project
needs that test file too."""
import pypto

from test_offset_config import OFFSET


@pypto.frontend.jit
def offset_kernel(x: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32),
                  y: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 32)
    y.move(pypto.add(x, OFFSET))
