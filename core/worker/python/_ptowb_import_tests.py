"""The files import runs beside a kernel file: test files that import it (beside it, in a tests/
folder, or anywhere below its package's folder) and what a file's syntax tree says of its kernels
and imports."""
import ast
import os
import re

import _ptowb_driver as _driver

MAX_TEST_FILES = 4  # sibling test files run to find a kernel's calls
MAX_TEST_SEARCH = 4000  # files looked at below a package's folder for tests that import it


def shorter_names(path):
    """The names a test in a folder above imports the file by, short of its package root:
    `_ops.sum_lstm` for interpreter/_ops/sum_lstm.py when the test sits in interpreter/ (on the
    path as conftest or pytest puts it), the nearest folder first; a file of a plain folder too."""
    parts = _driver.dotted_name(path).split(".")
    folder = os.path.basename(os.path.dirname(os.path.abspath(path)))
    if len(parts) == 1 and folder.isidentifier():
        parts = [folder] + parts
    names = [".".join(parts[k:]) for k in range(len(parts) - 2, 0, -1)] if len(parts) > 2 else []
    if len(parts) == 2 and parts[0] == folder:
        names = [".".join(parts)] if _driver.dotted_name(path) == parts[-1] else []
    return [n for n in names if all(p.isidentifier() for p in n.split("."))]


PYTEST_ROOT_MARKERS = ("pytest.ini", "pyproject.toml", "setup.cfg", "tox.ini")
MAX_CONFTEST_LEVELS = 16


def conftest_roots(folder):
    """The folders pytest puts on sys.path for a test in `folder`: each folder from there up to its
    rootdir (the nearest holding pytest.ini, pyproject.toml, setup.cfg or tox.ini) that holds a
    conftest.py and is no package (pytest's default `prepend` import mode). A test there imports
    the repository's modules through them (`from models.utils.compare import compare`)."""
    roots = []
    folder = os.path.abspath(folder)
    for _ in range(MAX_CONFTEST_LEVELS):
        if os.path.isfile(os.path.join(folder, "conftest.py")) and not os.path.isfile(
            os.path.join(folder, "__init__.py")
        ):
            roots.append(folder)
        parent = os.path.dirname(folder)
        if parent == folder or any(os.path.isfile(os.path.join(folder, m)) for m in PYTEST_ROOT_MARKERS):
            break
        folder = parent
    return roots


def _dotted(node):
    """`a.b.c` of an attribute chain on a name, or None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return ".".join([node.id] + parts[::-1]) if isinstance(node, ast.Name) else None


def local_imports(tree):
    """The modules a file imports inside its functions (`from models.utils.compare import compare`
    in a test's body), with the names it takes from each: bound only when the function runs. A
    module imported whole (`import utils.compare as compare`) gives the names the function reads
    from it (`compare.compare(...)`)."""
    found = {}
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        read = {_dotted(n) for n in ast.walk(node) if isinstance(n, ast.Attribute)} - {None}
        for inner in ast.walk(node):
            if isinstance(inner, ast.ImportFrom) and inner.module and not inner.level:
                found.setdefault(inner.module, set()).update(a.name for a in inner.names if a.name != "*")
            elif isinstance(inner, ast.Import):
                for alias in inner.names:
                    prefix = (alias.asname or alias.name) + "."
                    taken = {r[len(prefix) :].split(".")[0] for r in read if r.startswith(prefix)}
                    if taken:
                        found.setdefault(alias.name, set()).update(taken)
    return found


def folders_above(path, count):
    """The `count` folders above the file's own, nearest first."""
    folder = os.path.dirname(os.path.abspath(path))
    above = []
    for _ in range(count):
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        above.append(parent)
        folder = parent
    return above


TEST_FOLDERS = ("tests", "test")
TEST_FOLDER_LEVELS = 2  # how far up a tests/ folder beside the kernel's own is looked for


def test_folders(folder):
    """Where a kernel file's tests are kept by convention: its own folder, a tests/ or test/ folder
    in it, and one beside it or beside a folder above (`op/src/op_impl.py` is tested by
    `op/tests/test_op.py`, which puts ../src on its path)."""
    wheres = [folder] + [os.path.join(folder, t) for t in TEST_FOLDERS]
    for parent in folders_above(os.path.join(folder, "_"), TEST_FOLDER_LEVELS):
        wheres += [os.path.join(parent, t) for t in TEST_FOLDERS]
    return wheres


MIRROR_LEVELS = 8  # how far up a tests/ tree that mirrors the source tree is looked for


def mirrored_folders(path):
    """The folders of a tests/ tree beside a folder above the kernel file's that are named as the
    kernel's own folder: a repository that keeps its code in `src/pkg/ops/tile/vector/sigmoid/
    sigmoid_impl.py` keeps its tests in `tests/ops/vector/sigmoid/test_sigmoid.py`. Those whose
    trailing folder names match more of the kernel's come first. With the folder the tests/ tree
    sits in, which the names a test imports the kernel by are relative to (see mirror_names)."""
    folder = os.path.dirname(os.path.abspath(path))
    own = folder.split(os.sep)
    found, seen = [], 0
    for above in folders_above(path, MIRROR_LEVELS):
        for tests in TEST_FOLDERS:
            root = os.path.join(above, tests)
            if not os.path.isdir(root) or folder.startswith(os.path.join(root, "")):
                continue
            for where, dirs, _ in os.walk(root):
                dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__")))
                seen += 1
                if seen > MAX_TEST_SEARCH:
                    dirs[:] = []
                    break
                parts = where.split(os.sep)
                if where != root and parts[-1] == own[-1]:
                    common = next(k for k in range(1, len(parts) + 1) if k > len(own) or parts[-k] != own[-k])
                    found.append((-common, where, above))
    return [(where, above) for _, where, above in sorted(found)]


def mirror_names(path, above):
    """The dotted names a test of a mirrored tests/ tree may import the kernel file by, once it put
    a folder between `above` and the file on its path (`experimental.vector.sigmoid.sigmoid_impl`
    after `sys.path.insert(0, "src/pkg/ops/tile")`): each tail of the file's path below `above`
    of two names or more."""
    relative = os.path.relpath(os.path.splitext(os.path.abspath(path))[0], above).split(os.sep)
    tails = [relative[k:] for k in range(len(relative) - 1)]
    return [".".join(t) for t in tails if all(p.isidentifier() for p in t)]


def mirror_module_names(path, mirrored=None):
    """mirror_names for every tests/ tree that mirrors the kernel's folder (mirrored_folders)."""
    names = []
    mirrored = mirrored_folders(path) if mirrored is None else mirrored
    for above in dict.fromkeys(a for _, a in mirrored):
        names += [n for n in mirror_names(path, above) if n not in names]
    return names


MAX_IMPORTERS = 8  # modules beside the kernel file that import it, looked at as its wrappers


def importers_of(path):
    """The modules in the kernel file's folder that import it: a wrapper module that puts its folder
    on the path and imports the kernel file by its name (`liger_cross_entropy_loss.py` importing
    `liger_cross_entropy_loss_fwd_impl`), or the package's `__init__.py` (`from .fwd_impl import
    ...`). A test that imports one of them runs the kernel file too."""
    folder = os.path.dirname(os.path.abspath(path))
    stem = re.escape(os.path.splitext(os.path.basename(path))[0])
    imports = re.compile(
        rf"(?:^|;)\s*(?:from\s+\.?{stem}\s+import\b|import\s+{stem}\b|from\s+\.\s+import\s+[\w\s,(]*\b{stem}\b)",
        re.M,
    )
    found = []
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return found
    for name in names:
        candidate = os.path.join(folder, name)
        if (
            candidate == os.path.abspath(path)
            or not name.endswith(".py")
            or name.startswith("test_")
            or not os.path.isfile(candidate)
            or os.path.getsize(candidate) > (4 << 20)
        ):
            continue
        try:
            with open(candidate, encoding="utf-8") as f:
                if imports.search(f.read()):
                    found.append(candidate)
        except (OSError, UnicodeDecodeError):
            continue
        if len(found) >= MAX_IMPORTERS:
            break
    return found


def module_names(path, mirrored):
    """The names a test may import the module at `path` by: its own, its dotted name from its
    package root, the shorter ones a test in a folder above uses, and those of a mirrored tests/
    tree (a package's `__init__.py` by its package's names)."""
    if os.path.basename(path) == "__init__.py":
        folder = os.path.dirname(os.path.abspath(path))
        names = [os.path.basename(folder)] + mirror_module_names(folder + ".py", mirrored)
        return [n for n in names if all(p.isidentifier() for p in n.split("."))]
    stem = os.path.splitext(os.path.basename(path))[0]
    names = [stem, _driver.dotted_name(path)] + shorter_names(path) + mirror_module_names(path, mirrored)
    return list(dict.fromkeys(n for n in names if all(p.isidentifier() for p in n.split("."))))


def operator_folder(kernel_folder, test_folder):
    """The folder that holds both the kernel's folder and the tests/ folder a test sits in
    (`op/` of `op/src/op_impl.py` and `op/tests/test_op.py`): its other modules, such as
    `op/golden/op_golden.py`, are the operator's own. None for a test elsewhere."""
    parent = os.path.dirname(os.path.abspath(test_folder))
    if os.path.basename(os.path.abspath(test_folder)) not in TEST_FOLDERS:
        return None
    kernel_folder = os.path.abspath(kernel_folder)
    return parent if kernel_folder.startswith(os.path.join(parent, "")) else None


def test_candidates(folder, package, above=()):
    """Files in the kernel's test folders (see test_folders), and in the folders `above` (tests
    that import it as `_ops.sum_lstm`); for a file of a package, anywhere below its folder (tests of
    a package import it by its dotted name from other folders:
    kirin/kirinx90/single_operation/test_abs.py)."""
    seen = 0
    wheres = test_folders(folder) + list(above)
    for where in sorted(set(wheres), key=wheres.index):
        try:
            names = sorted(os.listdir(where))
        except OSError:
            continue
        for name in names:
            yield os.path.join(where, name)
    if not package:
        return
    for where, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__")))
        if where.count(os.sep) - folder.count(os.sep) > 4:
            dirs[:] = []
        if where == folder or os.path.relpath(where, folder) in TEST_FOLDERS:
            continue
        for name in sorted(names):
            seen += 1
            if seen > MAX_TEST_SEARCH:
                return
            yield os.path.join(where, name)


def sibling_tests(path, source, kernels=(), mirrored=None):
    """Files that import the kernel file and test it (see test_candidates): test files, and other
    files with a main block or test functions (`deepseekv32_mla_prolog_quant.py` beside
    `mla_prolog_quant_impl.py`). Those that call one of the file's `kernels` by name come first
    (`deepseekv32_mla_indexer_prolog_quant.py` imports only a config class of
    mla_prolog_quant_impl.py, and its tests take minutes); then the conventional names:
    test_<stem>.py, test_<stem without _impl>.py, <stem>_test.py; then the other test files."""
    folder = os.path.dirname(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    dotted = _driver.dotted_name(path)
    names = [stem] if dotted == stem else [stem, dotted]
    shorter = shorter_names(path)
    names += shorter
    mirrored = mirrored_folders(path) if mirrored is None else mirrored
    names += [n for n in mirror_module_names(path, mirrored) if n not in names]
    for importer in importers_of(path):
        names += [n for n in module_names(importer, mirrored) if n not in names]
    module = "|".join(re.escape(n) for n in names)
    patterns = [rf"from\s+(?:{module})\s+import\b", rf"import\s+(?:{module})\b"]
    if dotted != stem:  # from kirin import common_abs
        package = dotted.rpartition(".")[0]
        patterns.append(rf"from\s+{re.escape(package)}\s+import\s+[\w\s,(]*\b{re.escape(stem)}\b")
    # At a line's start, or after a `;` (`from golden import g; from op_impl import wrapper`).
    imports = re.compile(rf"(?:^|;)\s*(?:{'|'.join(patterns)})", re.M)
    conventional = {f"test_{stem}.py", f"{stem}_test.py"}
    if stem.endswith("_impl"):
        conventional.add(f"test_{stem[: -len('_impl')]}.py")
    found = []
    above = folders_above(path, len(shorter)) + [where for where, _ in mirrored]
    for candidate in test_candidates(folder, dotted != stem, above):
        name = os.path.basename(candidate)
        if (
            candidate == path
            or not name.endswith(".py")
            or name in ("conftest.py", "__init__.py", "setup.py")
            or not os.path.isfile(candidate)
            or os.path.getsize(candidate) > (4 << 20)
        ):
            continue
        test_named = name.startswith("test_") or name.endswith("_test.py")
        try:
            with open(candidate, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError):
            continue
        if imports.search(text) and (test_named or RUNS_SOMETHING.search(text)):
            found.append((candidate, text))
    found.sort(
        key=lambda f: (
            not calls_one_of(f[1], kernels),
            os.path.basename(f[0]) not in conventional,
            not os.path.basename(f[0]).startswith("test_") and not f[0].endswith("_test.py"),
        )
    )
    return found[:MAX_TEST_FILES]


def calls_one_of(source, names):
    """Whether the file's code calls a function of one of these names (`kernel(x, out)`,
    `impl.kernel(x, out)`); a mention in a string or a comment is no call."""
    if not names:
        return False
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            called = node.func
            if getattr(called, "id", None) in names or getattr(called, "attr", None) in names:
                return True
    return False


# A file that runs something when run or collected: a main block or a test function.
RUNS_SOMETHING = re.compile(r"^(?:if\s+__name__\s*==\s*['\"]__main__['\"]|def\s+test|class\s+Test)", re.M)


def jit_defs(tree):
    """The names of the file's jit kernels, at the top level or made inside functions."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
            re.search(r"\bjit\b", ast.unparse(d)) for d in node.decorator_list
        ):
            names.add(node.name)
    return names


def callers_of(tree, unrecorded):
    """The file's top-level functions that need no argument and call one of the `unrecorded`
    kernels or a function that makes one, in file order: a worker script's `pack_static_add()`
    that its argv dispatch runs, which neither a test nor the main block does. Then those that
    make one and need no argument themselves (`sum_lstm(run_mode="npu")`), which made_by can
    name though nothing calls what they make."""
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    top = [node for node in tree.body if isinstance(node, functions)]
    makers = set(unrecorded)
    for node in top:
        inner = {n.name for n in ast.walk(node) if n is not node and isinstance(n, functions)}
        if inner & unrecorded:
            makers.add(node.name)
    # And those that reach one through other functions of the file: a skipped test's
    # `te_prefill()` runs the test helper with the flag that picks the kernel.
    names = {node.name: {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} for node in top}
    reaching = set(makers)
    grown = True
    while grown:
        grown = False
        for node in top:
            if node.name not in reaching and names[node.name] & reaching:
                reaching.add(node.name)
                grown = True
    callers, own_makers = [], []
    for node in top:
        a = node.args
        required = len(a.posonlyargs) + len(a.args) - len(a.defaults) + sum(d is None for d in a.kw_defaults)
        if required or node.name.startswith("test") or isinstance(node, ast.AsyncFunctionDef):
            continue
        if node.name in makers:
            own_makers.append(node.name)
        elif node.name in reaching:
            callers.append(node.name)
    return callers + own_makers


def imported_modules(tree):
    """The modules a file imports by their absolute names."""
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            modules.add(node.module)
    return modules


def imported_names(tree):
    """The top-level names of the modules a file imports."""
    return {m.split(".")[0] for m in imported_modules(tree)}


def runs_pytest_only(block):
    """Whether a main block only hands the file to pytest (`pytest.main([__file__, "-v"])`, maybe
    in `sys.exit(...)`): import runs the file's tests itself, and pytest in the worker would
    collect, import conftest files and run them a second time."""

    def pytest_main(node):
        return (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "main"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "pytest"
        )

    for statement in block.body:
        value = statement.value if isinstance(statement, ast.Expr) else None
        if isinstance(value, ast.Call) and getattr(value.func, "attr", getattr(value.func, "id", "")) == "exit":
            value = value.args[0] if len(value.args) == 1 else None
        if not pytest_main(value):
            return False
    return bool(block.body)


def imports_relatively(tree):
    """Whether a module imports from its own package (`from .common import x`)."""
    return any(isinstance(node, ast.ImportFrom) and node.level > 0 for node in ast.walk(tree))
