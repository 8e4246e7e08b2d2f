#!/usr/bin/env python3
"""The comparison metrics computed with NumPy in float64, one metric at a time (as msaccucmp
does). Used by tst_compare to check ptowb's one-pass values, and by the compare benchmark as
the baseline.

    compare_metrics.py ACTUAL.npy EXPECTED.npy RTOL ATOL  -> JSON on stdout
"""
import json
import sys

import numpy as np


def metrics(actual, expected, rtol, atol, floor=1e-9):
    a = actual.astype(np.float64).ravel()
    e = expected.astype(np.float64).ravel()
    finite = np.isfinite(a) & np.isfinite(e)
    same_inf = np.isinf(a) & np.isinf(e) & (np.sign(a) == np.sign(e))
    af, ef = a[finite], e[finite]
    n = max(int(finite.sum()), 1)
    diff = np.abs(af - ef)
    rel = np.where(np.abs(ef) > floor, diff / np.where(np.abs(ef) > floor, np.abs(ef), 1.0), 0.0)
    out = {}
    out["max_abs_error"] = float(diff.max()) if diff.size else 0.0
    out["mean_abs_error"] = float(diff.sum() / n)
    out["max_rel_error"] = float(rel.max()) if rel.size else 0.0
    out["mean_rel_error"] = float(rel.sum() / n)
    out["rmse"] = float(np.sqrt(((af - ef) ** 2).sum() / n))
    norms = np.sqrt((af * af).sum()) * np.sqrt((ef * ef).sum())
    out["cosine"] = float((af * ef).sum() / norms) if norms > 0 else 1.0
    ee = (ef * ef).sum()
    out["rel_euclidean"] = float(np.sqrt(((af - ef) ** 2).sum() / ee)) if ee > 0 else 0.0
    mismatches = int((diff > atol + rtol * np.abs(ef)).sum()) + int((~finite & ~same_inf).sum())
    out["mismatch_count"] = mismatches
    out["mismatch_ratio"] = mismatches / a.size
    out["double_thousandth_ratio"] = float((rel < 1e-3).sum()) / a.size
    out["nan_actual"] = int(np.isnan(a).sum())
    out["nan_expected"] = int(np.isnan(e).sum())
    out["inf_actual"] = int(np.isinf(a).sum())
    out["inf_expected"] = int(np.isinf(e).sum())
    return out


if __name__ == "__main__":
    actual = np.load(sys.argv[1])
    expected = np.load(sys.argv[2])
    print(json.dumps(metrics(actual, expected, float(sys.argv[3]), float(sys.argv[4]))))
