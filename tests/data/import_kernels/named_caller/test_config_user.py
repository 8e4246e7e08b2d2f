"""Tests of another kernel that borrow tile_impl.py's configuration only (and take long)."""
from tile_impl import TileConfig


def test_other_kernel():
    raise RuntimeError(f"ran although it never calls halve_kernel(): {TileConfig().rows} rows")
