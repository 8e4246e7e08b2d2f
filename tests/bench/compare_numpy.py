#!/usr/bin/env python3
"""Baseline for bench_tensor's compare: the same metric set over two 64M-element float32
arrays with NumPy, one metric at a time (as msaccucmp computes them), in float64.

    /usr/bin/python3 tests/bench/compare_numpy.py
"""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tools"))
from compare_metrics import metrics  # noqa: E402

n = 64 << 20
rng = np.random.default_rng(12345)
expected = (rng.random(n, dtype=np.float32) - 0.5).astype(np.float32)
actual = (expected * (1 + 1e-4 * rng.integers(0, 8, n))).astype(np.float32)
start = time.perf_counter()
metrics(actual, expected, 1e-3, 1e-3)
seconds = time.perf_counter() - start
print("numpy: %.3f s for %d elements (%.2f GB/s of input)" % (seconds, n, 2 * 4 * n / seconds / 1e9))
