"""The test's comparison, a helper of its own that asserts."""


def compare(t, t_ref, name, atol, rtol):
    assert t.shape == t_ref.shape, f"{name}: shapes differ"
    bad = (t - t_ref).abs() > atol + rtol * t_ref.abs()
    assert not bool(bad.any()), f"{name}: {int(bad.sum())} elements differ"
