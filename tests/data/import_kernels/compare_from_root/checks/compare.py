"""The repository's comparison: at most max_error_ratio of the elements may lie outside atol + rtol."""


def compare(t, t_ref, name, atol, rtol, max_error_ratio=0.005):
    bad = (t - t_ref).abs() > atol + rtol * t_ref.abs()
    allowed = round(max_error_ratio * t_ref.numel())
    assert int(bad.sum()) <= allowed, f"{name}: {int(bad.sum())} elements differ, {allowed} may"
