#!/usr/bin/python3
"""Writes tests/data/pypto_api/public_api.json: the public API of the real `pypto` package, read
from its sources without importing them, for the check that the workbench's `pypto` has the same
names (tests/tools/check_pypto_api.py).

    pip download --no-deps pypto==0.2.0 -d /tmp/pyptowheel
    tests/tools/pypto_public_api.py /tmp/pyptowheel/pypto-0.2.0-*.whl GIT_DIR [--out FILE]

The wheel (or the folder it was unpacked into) is PyPI's pypto 0.2.0; GIT_DIR is a git directory
of hicann/pypto (bare or not), read at HEAD with `git show`, so no work tree is needed. Nothing is
imported: the sources and pypto_impl.pyi are parsed.

What counts as public, module by module (pypto, pypto.op, pypto.tensor, pypto.frontend,
pypto.experimental, pypto.op.distributed): the names in `__all__` where a module has one;
otherwise the module's own functions, classes and assignments, the names a package's
`__init__.py` imports by name (a deliberate re-export), and everything a `from .x import *`
brings in by the same rule. Names a plain module merely imports for its own use (typing helpers,
`source_location`, torch, a star import of the enums) are not API, although Python's star import
carries them along; of those only SymInt counts, which PyPTO's own kernels import from the
package. Besides the modules' names, the table lists the members of every public enum
(`pypto.DataType.DT_FP16`) and the public methods and properties of `pypto.Tensor`
(`pypto.Tensor.sinh`).

Each entry records whether 0.2.0 has it and whether HEAD has it, and, for functions, the
signature as written upstream.
"""
import argparse
import ast
import json
import pathlib
import re
import subprocess
import sys
import zipfile

MODULES = ("pypto", "pypto.op", "pypto.tensor", "pypto.frontend", "pypto.experimental", "pypto.op.distributed")
# Submodule names that are part of the API: the modules above, pypto.distributed, which
# kernels reach as `pypto.distributed.shmem_put` (pypto.op's star import carries the submodule
# along), pypto.runtime, which tests call as `pypto.runtime._device_synchronize()`, and
# pypto.error and pypto.pypto_impl, which tests reach as `pypto.error.FeError` and
# `pypto.pypto_impl.LogTopFolder()`. Other submodules (pypto.config, pypto.enum, pypto.ir, ...)
# also become attributes of the package when Python imports them, but kernels and their tests do
# not use them as pypto.<name>.
API_SUBMODULES = {
    "pypto": {"op", "frontend", "experimental", "distributed", "runtime", "error", "pypto_impl"},
    "pypto.op": {"distributed"},
}
CLASSES_WITH_MEMBERS = ("pypto.Tensor",)
# Names that only a star import carries into the package, but that PyPTO's own kernels import
# from it (`from pypto import SymInt, ceildiv, loop`): API in practice.
CARRIED = {"pypto": {"SymInt": "pypto.symbolic_scalar"}}


class Tree:
    """The python files of one pypto source tree, by dotted module name."""

    def __init__(self, files):
        self.files = files  # 'pypto/op/math.py' -> text

    @classmethod
    def from_wheel(cls, wheel):
        """A wheel file, or the folder it was unpacked into; also returns its dist-info files."""
        path = pathlib.Path(wheel)
        if path.is_file():
            with zipfile.ZipFile(path) as archive:
                texts = {
                    n: archive.read(n).decode("utf-8")
                    for n in archive.namelist()
                    if n.endswith((".py", ".pyi")) or ".dist-info/" in n and n.endswith(("METADATA", "WHEEL"))
                }
        else:
            texts = {
                p.relative_to(path).as_posix(): p.read_text(encoding="utf-8")
                for p in path.rglob("*")
                if p.is_file() and (p.suffix in (".py", ".pyi") or p.name in ("METADATA", "WHEEL"))
            }
        files = {n: t for n, t in texts.items() if n.startswith("pypto/") and n.endswith((".py", ".pyi"))}
        info = {n.rpartition("/")[2]: t for n, t in texts.items() if ".dist-info/" in n}
        return cls(files), info

    @classmethod
    def from_git(cls, git_dir, rev="HEAD"):
        names = subprocess.run(
            ["git", "-C", git_dir, "ls-tree", "-r", "--name-only", rev, "python/pypto"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        files = {}
        for name in names:
            if name.endswith((".py", ".pyi")):
                text = subprocess.run(
                    ["git", "-C", git_dir, "show", f"{rev}:{name}"], capture_output=True, text=True, check=True
                ).stdout
                files[name[len("python/") :]] = text
        return cls(files)

    def source(self, module, suffix=".py"):
        base = module.replace(".", "/")
        for candidate in (base + suffix, base + "/__init__" + suffix):
            if candidate in self.files:
                return candidate, self.files[candidate]
        return None, None

    def is_package(self, module):
        path, _ = self.source(module)
        return path is not None and path.endswith("__init__.py")

    def exists(self, module):
        return self.source(module)[0] is not None or self.source(module, ".pyi")[0] is not None


class Binding:
    def __init__(self, kind, deliberate=True, signature=None, members=None, origin=None):
        self.kind = kind  # function, class, enum, constant, module, external
        self.deliberate = deliberate  # part of the module's API (not a name it imports for itself)
        self.signature = signature
        self.members = members or {}  # name -> "member" / "property" / ("method", signature)
        self.origin = origin  # 'pypto.tensor.Tensor': where it is defined

    def copy(self, deliberate):
        return Binding(self.kind, deliberate, self.signature, self.members, self.origin)


def signature(args):
    """`(input, other, *, precision_type=PrecisionType.HIGH_PRECISION)` without annotations."""
    parts = []
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    for k, (a, d) in enumerate(zip(positional, defaults)):
        parts.append(a.arg if d is None else f"{a.arg}={ast.unparse(d)}")
        if args.posonlyargs and k == len(args.posonlyargs) - 1:
            parts.append("/")
    if args.vararg:
        parts.append("*" + args.vararg.arg)
    elif args.kwonlyargs:
        parts.append("*")
    for a, d in zip(args.kwonlyargs, args.kw_defaults):
        parts.append(a.arg if d is None else f"{a.arg}={ast.unparse(d)}")
    if args.kwarg:
        parts.append("**" + args.kwarg.arg)
    return "(" + ", ".join(parts) + ")"


def is_enum_class(node):
    return any(ast.unparse(b).split(".")[-1] in ("Enum", "IntEnum", "StrEnum") for b in node.bases)


def is_property(fn):
    return any(ast.unparse(d) in ("property",) or ast.unparse(d).endswith(".setter") for d in fn.decorator_list)


def class_binding(node, origin):
    if is_enum_class(node):
        members = {}
        for stmt in node.body:
            if isinstance(stmt, ast.Assign):
                for t in stmt.targets:
                    if isinstance(t, ast.Name) and not t.id.startswith("_"):
                        members[t.id] = "member"
            elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                members[stmt.target.id] = "member"
        return Binding("enum", members=members, origin=origin)
    members = {}
    for stmt in node.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and not stmt.name.startswith("_"):
            if is_property(stmt):
                members[stmt.name] = "property"
            elif stmt.name not in members:  # an overload's first definition stands for it
                members[stmt.name] = ("method", signature(stmt.args))
        elif isinstance(stmt, ast.Assign):
            for t in stmt.targets:
                if isinstance(t, ast.Name) and not t.id.startswith("_"):
                    members[t.id] = "attribute"
    init = next((s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
    sig = None
    if init is not None:
        sig = signature(init.args).replace("(self, ", "(", 1).replace("(self)", "()", 1)
    return Binding("class", signature=sig, members=members, origin=origin)


class Api:
    """Bindings of each module of one tree, resolved as Python would, without running anything."""

    def __init__(self, tree):
        self.tree = tree
        self.cache = {}
        self.impl = self.stub_bindings()
        # Every module of the tree some module imports at its top level: Python binds each one in
        # its package, whichever module imported it (`from .error import FeError` in
        # _controller.py makes pypto.error an attribute of pypto).
        self.loaded = set()

    def stub_bindings(self):
        """pypto_impl: the native module, described by its .pyi."""
        _, text = self.tree.source("pypto.pypto_impl", ".pyi")
        bindings = {}
        if text is None:
            return bindings
        for node in ast.parse(text).body:
            if isinstance(node, ast.ClassDef):
                bindings[node.name] = class_binding(node, "pypto.pypto_impl." + node.name)
            elif isinstance(node, ast.FunctionDef):
                bindings[node.name] = Binding(
                    "function", signature=signature(node.args), origin="pypto.pypto_impl." + node.name
                )
        return bindings

    def resolve(self, module, level, name):
        if level == 0:
            return name
        parts = module.split(".")
        if not self.tree.is_package(module):
            parts = parts[:-1]
        if level > 1:
            parts = parts[: -(level - 1)]
        return ".".join(parts + ([name] if name else []))

    def bindings(self, module):
        if module in self.cache:
            return self.cache[module]
        self.cache[module] = {}  # a cycle sees what is bound so far, as Python's import does
        path, text = self.tree.source(module)
        if text is None:
            if module == "pypto.pypto_impl":
                return {n: b.copy(True) for n, b in self.impl.items()}
            return {}
        result = self.cache[module]
        package = path.endswith("__init__.py")
        for stmt in ast.parse(text).body:
            self.statement(module, package, stmt, result)
        if package:
            for loaded in sorted(self.loaded):
                if loaded.startswith(module + "."):
                    short = loaded[len(module) + 1 :].split(".")[0]
                    result.setdefault(short, Binding("module", False, origin=f"{module}.{short}"))
        return result

    def exported(self, module):
        """What `from module import *` brings in, and the module's API."""
        bound = self.bindings(module)
        # A carried name counts where the module that defines it has it (both versions do).
        carried = {n: self.bindings(origin).get(n) for n, origin in CARRIED.get(module, {}).items()}
        return {**self.deliberate(module, bound), **{n: b.copy(True) for n, b in carried.items() if b is not None}}

    def deliberate(self, module, bound):
        declared = self.declared_all(module)
        if declared is not None:
            return {n: bound[n].copy(True) for n in declared if n in bound}
        keep = API_SUBMODULES.get(module, set())
        return {
            n: b
            for n, b in bound.items()
            if n in keep or not n.startswith("_") and b.deliberate and b.kind not in ("module", "external")
        }

    def declared_all(self, module):
        _, text = self.tree.source(module)
        if text is None:
            return None
        for stmt in ast.parse(text).body:
            if isinstance(stmt, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in stmt.targets
            ):
                return [ast.literal_eval(e) for e in stmt.value.elts]
        return None

    def statement(self, module, package, stmt, out):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out[stmt.name] = Binding("function", signature=signature(stmt.args), origin=f"{module}.{stmt.name}")
        elif isinstance(stmt, ast.ClassDef):
            out[stmt.name] = class_binding(stmt, f"{module}.{stmt.name}")
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if stmt.value is None:
                return
            for t in targets:
                if isinstance(t, ast.Name) and t.id != "__all__":
                    out[t.id] = self.value(module, stmt.value, out, t.id)
        elif isinstance(stmt, ast.ImportFrom):
            target = self.resolve(module, stmt.level, stmt.module)
            inside = target == "pypto" or target.startswith("pypto.")
            if inside:
                self.loaded.add(target)
                self.loaded.update(
                    f"{target}.{a.name}"
                    for a in stmt.names
                    if self.tree.exists(f"{target}.{a.name}") or f"{target}.{a.name}" == "pypto.pypto_impl"
                )
            for alias in stmt.names:
                if alias.name == "*":
                    if inside:
                        # Only a package's __init__ re-exports on purpose; a plain module's star
                        # import (tensor.py's `from .enum import *`) is for its own use.
                        out.update({n: b.copy(package) for n, b in self.exported(target).items()})
                    continue
                as_name = alias.asname or alias.name
                if not inside:
                    out[as_name] = Binding("external", False, origin=f"{target}.{alias.name}")
                elif self.tree.exists(f"{target}.{alias.name}") or f"{target}.{alias.name}" == "pypto.pypto_impl":
                    out[as_name] = Binding("module", package, origin=f"{target}.{alias.name}")
                else:
                    source = self.bindings(target)
                    found = source.get(alias.name)
                    if found is None and target == "pypto.pypto_impl":
                        found = self.impl.get(alias.name)
                    out[as_name] = (found or Binding("constant", origin=f"{target}.{alias.name}")).copy(package)
            # `from .op import *` and `from .runtime import verify` also bind the submodule in the
            # package, as Python's import does.
            if inside and stmt.level and target.startswith(module + "."):
                short = target[len(module) + 1 :].split(".")[0]
                out.setdefault(short, Binding("module", False, origin=f"{module}.{short}"))
        elif isinstance(stmt, ast.Import):
            for alias in stmt.names:
                out[alias.asname or alias.name.split(".")[0]] = Binding("external", False, origin=alias.name)
        elif isinstance(stmt, ast.Try):
            for s in stmt.body + stmt.orelse + stmt.finalbody:
                self.statement(module, package, s, out)
        elif isinstance(stmt, ast.If):
            if "TYPE_CHECKING" not in ast.unparse(stmt.test):
                for s in stmt.body + stmt.orelse:
                    self.statement(module, package, s, out)

    def value(self, module, node, scope, name):
        if isinstance(node, ast.Name) and node.id in scope:
            return scope[node.id].copy(True)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            owner = scope.get(node.value.id)
            if owner is not None and owner.kind == "module":
                if owner.origin == "pypto.pypto_impl" and node.attr in self.impl:
                    return self.impl[node.attr].copy(True)
                inner = self.bindings(owner.origin).get(node.attr)
                if inner is not None:
                    return inner.copy(True)
                if self.tree.exists(f"{owner.origin}.{node.attr}"):
                    return Binding("module", True, origin=f"{owner.origin}.{node.attr}")
        return Binding("constant", origin=f"{module}.{name}")


def entries(tree):
    """{'pypto.add': {'kind': 'function', 'signature': '(input, other)'}, ...} of one tree."""
    api = Api(tree)
    out = {}
    for module in MODULES:
        for name, b in api.exported(module).items():
            entry = {"kind": b.kind}
            if b.signature and b.kind in ("function", "class"):
                entry["signature"] = b.signature
            out[f"{module}.{name}"] = entry
    # Enum members and Tensor's methods, each once under its pypto.<Name>.
    for short, b in api.exported("pypto").items():
        name = "pypto." + short
        if b.kind == "enum" or (b.kind == "class" and name in CLASSES_WITH_MEMBERS):
            for member, kind in b.members.items():
                if isinstance(kind, tuple):
                    out[f"{name}.{member}"] = {"kind": kind[0], "signature": kind[1]}
                else:
                    out[f"{name}.{member}"] = {"kind": kind}
    return out


def merge(old, new):
    table = {}
    for name in sorted(set(old) | set(new)):
        entry = dict(new.get(name) or old[name])
        entry["in_0_2_0"] = name in old
        entry["in_head"] = name in new
        if (
            name in old
            and name in new
            and old[name].get("signature") != new[name].get("signature")
            and old[name].get("signature")
        ):
            entry["signature_0_2_0"] = old[name]["signature"]
        table[name] = entry
    return table


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("wheel", help="pypto-0.2.0-*.whl, or the folder it was unpacked into")
    parser.add_argument("git_dir")
    parser.add_argument(
        "--out", default=str(pathlib.Path(__file__).resolve().parents[1] / "data" / "pypto_api" / "public_api.json")
    )
    args = parser.parse_args()
    wheel, info = Tree.from_wheel(args.wheel)
    version = re.search(r"^Version: (.+)$", info.get("METADATA", ""), re.M)
    tag = re.search(r"^Tag: (.+)$", info.get("WHEEL", ""), re.M)
    if not version or version.group(1) != "0.2.0":
        sys.exit(f"{args.wheel} is not pypto 0.2.0's wheel; the table records 0.2.0 (its entries say in_0_2_0)")
    head = Tree.from_git(args.git_dir)
    commit = subprocess.run(
        ["git", "-C", args.git_dir, "log", "-1", "--format=%H %cI"], capture_output=True, text=True, check=True
    ).stdout.split()
    document = {
        "about": "Public API of the real pypto package (see tests/tools/pypto_public_api.py for what counts as "
        "public). in_0_2_0: PyPI's pypto 0.2.0 has it; in_head: hicann/pypto at the commit below has it.",
        "sources": {
            "pypi": {
                "package": "pypto",
                "version": version.group(1),
                "wheel": f"pypto-{version.group(1)}-{tag.group(1) if tag else 'unknown'}.whl",
            },
            "git": {"repository": "hicann/pypto", "commit": commit[0], "date": commit[1]},
        },
        "modules": list(MODULES),
        "names": merge(entries(wheel), entries(head)),
    }
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(document, indent=1, sort_keys=False) + "\n")
    counts = {m: sum(1 for n in document["names"] if n.rpartition(".")[0] == m) for m in MODULES}
    print(f"{len(document['names'])} names written to {out}: {counts}")


if __name__ == "__main__":
    main()
