"""A package of kernels."""
