"""Tensors made in the body of a `pypto.loop`: one tensor for every iteration.

PyPTO traces a loop's body once, so `tmp = pypto.Tensor(shape, dtype)` in it is one tensor, whose
data the iterations share: a kernel may assemble each iteration's tile into it and move it to an
output every iteration (`out[:] = tmp`), which then holds every tile. Run eagerly, the body runs
once per iteration; here the tensor a body makes at a line in an iteration is the one it made there
in the earlier iterations. A Python loop in the body is unrolled by PyPTO's trace, each of its
passes making a tensor of its own: the k-th tensor made at a line in an iteration is the k-th of
the earlier ones. A loop that runs again (a Python loop around it) is traced again: new tensors.
"""
import sys

_PACKAGE = __name__.rpartition(".")[0]

# One per running pypto.loop, innermost last: [made tensors (outermost loop only), counts].
_running = []


def begin():
    """A loop starts; end() takes what this returns."""
    entry = [{} if not _running else _running[0][0], {}]
    _running.append(entry)
    return entry


def next_iteration(entry):
    entry[1].clear()


def end(entry):
    # A loop left by an exception ends when its generator is collected, maybe after the next
    # kernel call began (reset()): only its own entry goes.
    for i, running in enumerate(_running):
        if running is entry:
            del _running[i:]
            return


def reset():
    """A kernel call starts: no loop runs."""
    _running.clear()


def _site():
    """(file, line) of the kernel code that makes the tensor: the first frame outside pypto."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__", "").partition(".")[0] == _PACKAGE:
        frame = frame.f_back
    return (frame.f_code.co_filename, frame.f_lineno) if frame is not None else None


def made(shape, dtype, make):
    """The tensor of `shape` and `dtype` the loop body makes here: `make()` on its first pass."""
    if not _running:
        return make()
    site = _site()
    if site is None:
        return make()
    kept, counts = _running[0][0], _running[-1][1]
    key = (len(_running), site, tuple(shape), dtype)
    counts[key] = counts.get(key, 0) + 1
    key += (counts[key],)
    if key not in kept:
        kept[key] = make()
    return kept[key]
