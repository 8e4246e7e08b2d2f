"""The factor, imported relatively by the kernel; the tile's width comes from the tiling package."""
from tiling.widths import COLUMNS

FACTOR = 2.5
TILE_COLUMNS = COLUMNS
