"""The scripts' own comparison: asserts inside and returns nothing, its tolerances by name."""


def compare(t, t_ref, name, atol, rtol):
    bad = (t - t_ref).abs() > atol + rtol * t_ref.abs()
    assert not bool(bad.any()), f"{name}: {int(bad.sum())} elements differ"
