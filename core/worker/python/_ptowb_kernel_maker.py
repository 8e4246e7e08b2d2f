"""A jit kernel built inside a function of the kernel file: a test that defines and calls it, a
launcher that builds it and runs it, a factory. op.json's kernel.made_by names that function;
running it until it calls (or returns) the jit kernel named kernel.function gives the kernel with
what its closure holds (shapes, dtypes, tile sizes of that test). The kernel's own call is not
made: the run stops there. Other kernels it calls first run as usual.

One file for every place that runs a kernel: the kernel worker (the simulator's pypto), the real
PyPTO's driver and the generated package's Python glue. Standard library only.
"""

import ast
import importlib.util
import inspect
import os
import pathlib
import re
import shutil
import sys
import tempfile
import types

# NAME, Class.NAME, either with a pytest case id: test_add[fp16-64]
MADE_BY = re.compile(r"^([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)(?:\[(.{1,200})\])?$")
MAIN_BLOCK = "__main__"  # the file's `if __name__ == "__main__":` block


class KernelMakerError(Exception):
    def __init__(self, message, line=1):
        super().__init__(message)
        self.line = line


class _Made(BaseException):
    """Unwinds the maker's run from the kernel's call; a BaseException, so that the maker's own
    `except Exception` does not catch it."""

    def __init__(self, kernel):
        super().__init__()
        self.kernel = kernel


def kernel_function(value, limit=8):
    """The Python function under jit wrappers (the simulator's `.fn`, PyPTO's `_original_func`)."""
    for _ in range(limit):
        if isinstance(value, types.FunctionType):
            return value
        inner = None
        for attr in ("fn", "_original_func", "__wrapped__", "func"):
            inner = getattr(value, attr, None) if not isinstance(value, type) else None
            if inner is not None:
                break
        if inner is None:
            return None
        value = inner
    return None


def _is_kernel(value, name, jit_classes):
    if not isinstance(value, tuple(jit_classes)):
        return False
    fn = kernel_function(value)
    return fn is not None and fn.__name__ == name


def _pytest_id(value, argname, index):
    """pytest's id for one value of a parametrize argument."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return str(value)
    return f"{argname}{index}"


def parametrizations(fn, limit=1000):
    """(id, arguments) for each argument set of a test function's pytest parametrize marks, as
    pytest names them; skipped sets left out, unless a mark skips every set (a file whose cases
    are all skipped still has its kernels called so). One ("", {}) for a function with no marks."""
    sets = [("", {})]
    for mark in reversed(getattr(fn, "pytestmark", []) or []):
        if getattr(mark, "name", "") != "parametrize" or len(mark.args) < 2:
            continue
        names, values = mark.args[0], mark.args[1]
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        ids = mark.kwargs.get("ids") if isinstance(getattr(mark, "kwargs", None), dict) else None
        expanded, skipped = [], []
        for index, value in enumerate(values):
            case_id = ids[index] if isinstance(ids, (list, tuple)) and index < len(ids) else None
            kept = expanded
            if hasattr(value, "values") and hasattr(value, "marks"):  # pytest.param(...)
                if any(getattr(m, "name", "") in ("skip", "skipif", "xfail") for m in value.marks):
                    kept = skipped
                case_id = getattr(value, "id", None) or case_id
                value = tuple(value.values)
            else:
                value = (value,) if len(names) == 1 else tuple(value)
            if case_id is None:
                case_id = "-".join(_pytest_id(v, n, index) for n, v in zip(names, value))
            kept.append((str(case_id), dict(zip(names, value))))
        expanded = expanded or skipped
        sets = [("-".join(x for x in (case_id, sid) if x), dict(s, **e)) for sid, s in sets for case_id, e in expanded][
            :limit
        ]
    return sets


def _maker(module, target):
    """(function, owner class or None) named `target` ("test_x" or "TestX.test_x")."""
    head, _, method = target.partition(".")
    value = vars(module).get(head)
    if method:
        owner = value if isinstance(value, type) else None
        fn = vars(owner).get(method) if owner is not None else None
        if not isinstance(fn, types.FunctionType):
            raise KernelMakerError(f"the kernel file defines no class '{head}' with a method '{method}'")
        return fn, owner
    if not isinstance(value, types.FunctionType):
        raise KernelMakerError(f"the kernel file defines no function '{head}' (kernel.made_by)")
    return value, None


def main_block(tree):
    """The statements under a module's `if __name__ == "__main__":`, as a module of their own."""
    body = []
    for node in tree.body:
        test = node.test if isinstance(node, ast.If) else None
        if (
            isinstance(test, ast.Compare)
            and isinstance(test.left, ast.Name)
            and test.left.id == "__name__"
            and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in test.comparators)
        ):
            body.extend(node.body)
    return ast.Module(body=body, type_ignores=[])


def _main_runner(module):
    """A function that runs the module's main block in a copy of its namespace (what the block
    assigns stays there), with the command line of a plain `python FILE`."""
    path = getattr(module, "__file__", None) or ""
    try:
        tree = ast.parse(inspect.getsource(module), path)
    except (OSError, TypeError, SyntaxError) as exc:
        raise KernelMakerError(f"kernel.made_by '{MAIN_BLOCK}': the kernel file cannot be read: {exc}") from None
    block = main_block(tree)
    if not block.body:
        raise KernelMakerError(f"kernel.made_by '{MAIN_BLOCK}': the kernel file has no `if __name__ == \"__main__\":`")
    code = compile(block, path, "exec")

    def run():
        saved = list(sys.argv)
        sys.argv = [path]
        try:
            exec(code, dict(vars(module)))
        except SystemExit as exc:
            raise KernelMakerError(
                f"the kernel file's main block exited ({exc.code}) before it built the kernel"
            ) from None
        finally:
            sys.argv = saved

    run.first_line = block.body[0].lineno
    return run


# Files that mark the root of a test tree: conftest.py files are looked for up to its folder.
ROOT_MARKERS = (".git", "pyproject.toml", "setup.py", "setup.cfg", "tox.ini", "pytest.ini")
MAX_CONFTEST_LEVELS = 8
_CONFTESTS = {}  # path -> ((mtime, size), the loaded conftest module or None: it failed to load)


def _fixture_definition(value):
    """(name, function, params) of a pytest fixture, whichever pytest made it (a marked function
    before 8.4, a FixtureFunctionDefinition after); None for anything else."""
    marker = getattr(value, "_fixture_function_marker", None) or getattr(value, "_pytestfixturefunction", None)
    if marker is None or not hasattr(marker, "scope"):
        return None
    fn = getattr(value, "_fixture_function", None) or getattr(getattr(value, "__pytest_wrapped__", None), "obj", None)
    if not callable(fn):
        return None
    return getattr(marker, "name", None), fn, tuple(getattr(marker, "params", None) or ())


def _conftest_paths(path):
    """The conftest.py files that pytest loads for a test file, the outermost first."""
    found = []
    folder = os.path.dirname(os.path.abspath(path))
    for _ in range(MAX_CONFTEST_LEVELS):
        candidate = os.path.join(folder, "conftest.py")
        if os.path.isfile(candidate):
            found.append(candidate)
        parent = os.path.dirname(folder)
        if parent == folder or any(os.path.exists(os.path.join(folder, m)) for m in ROOT_MARKERS):
            break
        folder = parent
    return list(reversed(found))


def _conftest(path, beside):
    """The conftest module at `path`, loaded again when the file changed; None when it fails to
    load. The one `beside` the test file is also `conftest` in sys.modules, as pytest names it,
    so that it travels with the file as a module of its folder."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    key = (stat.st_mtime_ns, stat.st_size)
    cached = _CONFTESTS.get(path)
    if cached is None or cached[0] != key:
        spec = importlib.util.spec_from_file_location(f"_ptowb_conftest_{len(_CONFTESTS)}", path)
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except Exception:  # noqa: B902 - its fixtures are then unknown, and the test says which it lacks
            module = None
        cached = _CONFTESTS[path] = (key, module)
    if cached[1] is not None and beside:
        sys.modules.setdefault("conftest", cached[1])
    return cached[1]


class _Request:
    """What a fixture that takes `request` reads: the param it is made with, other fixtures."""

    def __init__(self, fixtures, name, param):
        self._fixtures = fixtures
        self.fixturename = name
        if param is not _NO_PARAM:
            self.param = param

    def getfixturevalue(self, name):
        return self._fixtures.value(name)

    def addfinalizer(self, fn):
        self._fixtures.finalizers.append(fn)


_NO_PARAM = object()
BUILT_IN_FIXTURES = ("tmp_path", "monkeypatch", "request")


class Fixtures:
    """The pytest fixtures a test takes, made as pytest makes them: from the test's module, then
    the conftest.py files above it (loaded only when the module lacks a fixture); `tmp_path`,
    `monkeypatch` and `request` built in. A fixture with params is made with its first; a
    generator fixture's teardown runs at close(). Autouse fixtures are not made."""

    def __init__(self, module):
        self._module = module
        self._table = None
        self._conftests = None  # the conftest.py files above the test file, the nearest first
        self._values = {}
        self.finalizers = []

    def _lookup(self, name):
        """(function, params) of the fixture `name`: the module's own, else the nearest conftest's."""
        if self._table is None:
            self._table = _fixture_table(vars(self._module))
        if name in self._table:
            return self._table[name]
        test_file = getattr(self._module, "__file__", "") or ""
        if self._conftests is None:
            self._conftests = list(reversed(_conftest_paths(test_file)))
        for path in self._conftests:
            module = _conftest(path, os.path.dirname(path) == os.path.dirname(os.path.abspath(test_file)))
            found = _fixture_table(vars(module)).get(name) if module is not None else None
            if found is not None:
                return found
        return None

    def can_make(self, name, seen=()):
        if name in BUILT_IN_FIXTURES or name in self._values:
            return True
        found = self._lookup(name)
        if found is None or name in seen:
            return False
        return all(self.can_make(p, seen + (name,)) for p in missing_parameters(found[0], {}))

    def value(self, name):
        if name not in self._values:
            self._values[name] = self._make(name)
        return self._values[name]

    def _make(self, name):
        if name == "tmp_path":
            folder = tempfile.mkdtemp(prefix="ptowb-tmp-")
            self.finalizers.append(lambda: shutil.rmtree(folder, ignore_errors=True))
            return pathlib.Path(folder)
        if name == "monkeypatch":
            from _pytest.monkeypatch import MonkeyPatch

            patch = MonkeyPatch()
            self.finalizers.append(patch.undo)
            return patch
        if name == "request":
            return _Request(self, None, _NO_PARAM)
        fn, params = self._lookup(name)
        param = params[0] if params else _NO_PARAM
        if hasattr(param, "values") and hasattr(param, "marks"):  # pytest.param(...)
            param = param.values[0] if len(param.values) == 1 else tuple(param.values)
        arguments = {}
        for p in missing_parameters(fn, {}):
            arguments[p] = _Request(self, name, param) if p == "request" else self.value(p)
        result = fn(**arguments)
        if inspect.isgenerator(result):
            generator = result
            result = next(generator)
            self.finalizers.append(lambda: next(generator, None))
        return result

    def close(self):
        """Tears down what was made, the last made first; the first teardown failure is raised
        after every teardown ran."""
        failure = None
        while self.finalizers:
            try:
                self.finalizers.pop()()
            except Exception as exc:  # noqa: B902 - raised below, once the others ran
                failure = failure or exc
        if failure is not None:
            raise failure


def _fixture_table(namespace):
    table = {}
    for attr, value in list(namespace.items()):
        found = _fixture_definition(value)
        if found is not None:
            name, fn, params = found
            table[name or attr] = (fn, params)
    return table


def missing_parameters(fn, given, skip=0):
    """The parameters of `fn` (past the first `skip`) that need a value `given` does not hold."""
    params = list(inspect.signature(fn).parameters.values())[skip:]
    return [
        p.name
        for p in params
        if p.name not in given and p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]


def _arguments(fn, made_by, case_id, skip_self, fixtures):
    """The test's arguments for the pytest case `case_id` (None: the first), and the names of the
    fixtures it takes besides."""
    sets = parametrizations(fn)
    if case_id is not None:
        chosen = [arguments for sid, arguments in sets if sid == case_id]
        if not chosen:
            known = ", ".join(sid for sid, _ in sets[:8] if sid) or "none"
            raise KernelMakerError(f"{made_by}: no pytest case has the id '{case_id}' (its cases: {known})")
        arguments = chosen[0]
    else:
        arguments = sets[0][1]
    missing = missing_parameters(fn, arguments, 1 if skip_self else 0)
    unmade = [name for name in missing if not fixtures.can_make(name)]
    if unmade:
        raise KernelMakerError(
            f"{made_by} takes {', '.join(unmade)}, which nothing gives (no pytest fixture of that name "
            "is defined in the file or a conftest.py above it): name a function that needs no "
            "arguments (a test, a main), a pytest case as NAME[id], or give them in kernel.made_with",
            fn.__code__.co_firstlineno,
        )
    return arguments, missing


ELLIPSIS = "..."  # in a list of kernel.made_with: Python's `...` (`pypto.Tensor([...], dtype)`)


def literal_value(value):
    """A literal op.json gives as is, as Python holds it: {"dict": [[key, value], ...]} is the
    dict (its keys need not be strings: a config's {2: 4}), inside lists too."""
    if isinstance(value, list):
        return [literal_value(v) for v in value]
    if isinstance(value, dict) and set(value) == {"dict"}:
        return {key: literal_value(v) for key, v in value["dict"]}
    return value


def _with_ellipsis(value):
    """kernel.made_with's "..." in a list as Python's `...`; the caller has built the dicts."""
    if isinstance(value, list):
        return [Ellipsis if v == ELLIPSIS else _with_ellipsis(v) for v in value]
    if isinstance(value, dict):
        return {key: _with_ellipsis(v) for key, v in value.items()}
    return value


def _factory_arguments(fn, made_by, made_with):
    """op.json's kernel.made_with, checked against the factory's parameters."""
    params = inspect.signature(fn).parameters
    unknown = [n for n in made_with if n not in params]
    if unknown and not any(p.kind == p.VAR_KEYWORD for p in params.values()):
        raise KernelMakerError(
            f"{made_by} takes no parameter named {', '.join(repr(n) for n in unknown)} (kernel.made_with names it)",
            fn.__code__.co_firstlineno,
        )
    missing = missing_parameters(fn, made_with)
    if missing:
        raise KernelMakerError(
            f"{made_by} takes {', '.join(missing)}, which kernel.made_with does not give", fn.__code__.co_firstlineno
        )
    return {n: _with_ellipsis(v) for n, v in made_with.items()}


def make_kernel(module, made_by, name, jit_classes, made_with=None):
    """The jit kernel `name` that `module`'s function `made_by` builds: the first such kernel it
    calls, else the one it returns. `made_with` (op.json's kernel.made_with, its values as the
    kernel takes them) are the arguments of a factory that needs some."""
    form = MADE_BY.match(made_by or "")
    if not form:
        raise KernelMakerError(f"kernel.made_by '{made_by}' is not NAME, Class.NAME or NAME[pytest id]")
    fixtures, taken = Fixtures(module), []
    if made_by == MAIN_BLOCK:
        fn, owner, arguments = _main_runner(module), None, {}
    else:
        fn, owner = _maker(module, form.group(1))
        if made_with:
            arguments = _factory_arguments(fn, made_by, made_with)
        else:
            arguments, taken = _arguments(fn, made_by, form.group(2), owner is not None, fixtures)
    undo = []
    for cls in jit_classes:
        original = cls.__call__

        def call(self, *args, _original=original, **kwargs):
            if _is_kernel(self, name, jit_classes):
                raise _Made(self)
            return _original(self, *args, **kwargs)

        undo.append((cls, original, "__call__" in vars(cls)))
        cls.__call__ = call
    try:
        arguments = dict(arguments, **{name: fixtures.value(name) for name in taken})
        result = fn(owner(), **arguments) if owner is not None else fn(**arguments)
    except _Made as made:
        return made.kernel
    finally:
        for cls, original, own in undo:
            if own:
                cls.__call__ = original
            else:
                del cls.__call__
        fixtures.close()
    # A factory returns the kernel, or several in a tuple, a list or a dict.
    values = result.values() if isinstance(result, dict) else result if isinstance(result, (tuple, list)) else (result,)
    for value in values:
        if _is_kernel(value, name, jit_classes):
            return value
    raise KernelMakerError(
        f"{made_by} ran to its end without calling or returning a jit kernel named '{name}'",
        getattr(fn, "first_line", fn.__code__.co_firstlineno),
    )
