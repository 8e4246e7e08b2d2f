#!/usr/bin/env python3
"""Baseline for bench_tensor's file compare: one streaming pass of NumPy over two .npy files —
both read block by block into one reused buffer each and summed — the least any compare of
the files must do. Writes the two 32M-element float32 files first when they are missing.

    /usr/bin/python3 tests/bench/stream_numpy.py [ACTUAL.npy EXPECTED.npy] [--repeat N]
"""
import argparse
import os
import time

import numpy as np

ELEMENTS = 32 << 20
BLOCK = 1 << 20  # elements per read


def write_pair(actual_path, expected_path):
    rng = np.random.default_rng(12345)
    expected = (rng.random(ELEMENTS, dtype=np.float32) - 0.5).astype(np.float32)
    actual = (expected * (1 + 1e-4 * rng.integers(0, 8, ELEMENTS))).astype(np.float32)
    np.save(expected_path, expected)
    np.save(actual_path, actual)


def streaming_sum(paths):
    files = []
    for path in paths:
        f = open(path, "rb")
        version = np.lib.format.read_magic(f)
        shape, _, dtype = np.lib.format._read_array_header(f, version)
        files.append((f, int(np.prod(shape)), dtype))
    buffers = [np.empty(BLOCK, dtype=d) for _, _, d in files]
    total = 0.0
    count = files[0][1]
    for start in range(0, count, BLOCK):
        n = min(BLOCK, count - start)
        for (f, _, _), buffer in zip(files, buffers):
            view = buffer[:n]
            f.readinto(memoryview(view).cast("B"))
            total += float(view.sum())
    for f, _, _ in files:
        f.close()
    return total


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "paths", nargs="*", default=["/tmp/ptowb_bench_actual_32M.npy", "/tmp/ptowb_bench_expected_32M.npy"]
    )
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if not all(os.path.exists(p) for p in args.paths):
        write_pair(*args.paths)
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        streaming_sum(args.paths)
        times.append(time.perf_counter() - start)
    print(
        "numpy streaming pass: best %.1f ms, median %.1f ms over %d runs"
        % (min(times) * 1e3, sorted(times)[len(times) // 2] * 1e3, len(times))
    )


if __name__ == "__main__":
    main()
