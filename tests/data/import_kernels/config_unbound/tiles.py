"""Tile settings shared by several kernels: the config class and a helper the kernel uses."""
from dataclasses import dataclass


@dataclass
class RowTiles:
    rows: int = 8
    factor: float = 1.0


def tile_rows(tiles):
    return tiles.rows
