"""The factor the package's kernels scale by."""
FACTOR = 2.5
