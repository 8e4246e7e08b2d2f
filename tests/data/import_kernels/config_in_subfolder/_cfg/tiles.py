from dataclasses import dataclass


@dataclass
class TileConfig:
    tile_rows: int = 8
