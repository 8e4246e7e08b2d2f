"""Helpers the package's kernel files share, imported through the package."""
import numpy as np


def cosine(actual, expected):
    actual = actual.reshape(-1).astype(np.float64)
    expected = expected.reshape(-1).astype(np.float64)
    norms = np.sqrt(np.sum(actual * actual)) * np.sqrt(np.sum(expected * expected))
    return 1.0 if norms == 0 else float(np.sum(actual * expected) / norms)
