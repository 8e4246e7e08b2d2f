"""Import's reading of a test's expected value: the two values a comparison compares, a bound
asserted on a maximum difference, the goldens listed for set_verify_golden_data, and the backward
slice that writes an expected expression over the kernel's inputs (`golden = torch.add(x, y) +
val` -> `torch.add(x, y) + val`)."""
import ast
import math
import sys


def torch_module():
    return sys.modules.get("torch")


def is_tensor(value):
    torch = torch_module()
    return torch is not None and isinstance(value, torch.Tensor)


def golden_list_nodes(function, line, count):
    """The elements of the list of goldens passed by the call at `line`: its `goldens=` argument, or
    the last list or tuple of `count` elements among its positional arguments."""
    for node in ast.walk(function):
        if not (isinstance(node, ast.Call) and node.lineno <= line <= (node.end_lineno or node.lineno)):
            continue
        candidates = [k.value for k in node.keywords if k.arg == "goldens"] or list(reversed(node.args))
        for value in candidates:
            if isinstance(value, (ast.List, ast.Tuple)) and len(value.elts) == count:
                return value.elts
    return None


def flat_values(value):
    """A 1-D tensor or array as float64 NumPy values; None for anything else."""
    try:
        import numpy as np

        if is_tensor(value):
            value = value.detach().cpu().double().numpy()
        if isinstance(value, np.ndarray) and value.ndim == 1:
            return value.astype(np.float64)
    except Exception:  # noqa: BLE001 - what NumPy cannot read is no output
        pass
    return None


ALLCLOSE_NAMES = (
    "allclose",
    "assert_allclose",
    "assert_close",
    "isclose",
    "assert_array_equal",
    "assert_equal",
    "equal",  # torch.equal: exact
)


def verdict_discarded(function, line):
    """Whether the statement at `line` is a bare allclose / isclose / equal call: it computes a
    verdict and drops it (`torch.allclose(out, golden, rtol=3e-3, atol=3e-3)` on a line of its
    own), so its tolerance holds the kernel to nothing."""
    for node in ast.walk(function):
        if isinstance(node, ast.Expr) and node.lineno <= line <= (node.end_lineno or node.lineno):
            call = node.value
            name = isinstance(call, ast.Call) and (getattr(call.func, "attr", None) or getattr(call.func, "id", None))
            if name in ("allclose", "isclose", "equal"):
                return True
    return False


def compared_operands(function, line, names=ALLCLOSE_NAMES):
    """The two values the statement at `line` compares, and its line: the arguments of an
    allclose-style call (or of the file's own comparing function, `names`), or the operands of
    the subtraction in `(out - expected).abs().max()` (PyPTO's examples bound that maximum with a
    number). None when the line compares nothing."""
    at_line = [n for n in ast.walk(function) if getattr(n, "lineno", 0) <= line <= getattr(n, "end_lineno", 0)]
    for n in at_line:
        if isinstance(n, ast.Call) and (getattr(n.func, "attr", None) or getattr(n.func, "id", None)) in names:
            return n.args, n.lineno
    if names is not ALLCLOSE_NAMES:
        return None
    for n in at_line:
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Sub):
            return [n.left, n.right], n.lineno
    return None


def _calls_method(node, names):
    """Whether the expression applies each of `names` as a method or a torch/numpy function."""
    seen = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            called = getattr(n.func, "attr", None) or getattr(n.func, "id", None)
            if called in names:
                seen.add(called)
    return seen == set(names)


def _named_assignments(function):
    """The function's `name = value` statements."""
    return [
        n
        for n in ast.walk(function)
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
    ]


def _maximum_of(assignments, name):
    """The name assigned the maximum of `name` (`mx = d.max().item()`, `float(d.max())`); None."""
    for n in assignments:
        for call in ast.walk(n.value):
            if (
                isinstance(call, ast.Call)
                and getattr(call.func, "attr", None) == "max"
                and isinstance(call.func.value, ast.Name)
                and call.func.value.id == name
            ):
                return n.targets[0].id
    return None


def difference_bound(function, line, values=None):
    """The number a maximum absolute difference computed at `line` is held to: `name =
    (a - b).abs().max()...` there (or `d = (a - b).abs()` there and `name = d.max()...` after), and
    `name < 0.1` (or `<=`, or `0.1 > name`) in the same function, or the failing side of it
    (`name > 0.1`, `(d > 0.1).sum()`: what exceeds the number fails); the bound may be a name whose
    value (in `values`, the frame's names now) is that number (`atol = 1e-1` ... `max_diff <
    atol`). None when the line is no such assignment or nothing bounds it."""
    assignments = _named_assignments(function)
    target, differences = None, set()
    for n in assignments:
        if n.lineno <= line <= n.end_lineno:
            if _calls_method(n.value, ("abs", "max")):
                target = n.targets[0].id
            elif _calls_method(n.value, ("abs",)):
                differences.add(n.targets[0].id)
                target = target or _maximum_of(assignments, n.targets[0].id)
    if target is None:
        return None
    bounded = {target} | differences

    def number(node):
        if isinstance(node, ast.Constant):
            value = node.value
        elif isinstance(node, ast.Name) and values is not None and node.id in values:
            value = values[node.id]
        else:
            return None
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
            return float(value)
        return None

    for n in ast.walk(function):
        if not isinstance(n, ast.Compare) or len(n.ops) != 1:
            continue
        left, op, right = n.left, n.ops[0], n.comparators[0]
        if isinstance(left, ast.Name) and left.id in bounded and isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)):
            bound = number(right)
        elif isinstance(right, ast.Name) and right.id in bounded and isinstance(op, (ast.Gt, ast.GtE, ast.Lt, ast.LtE)):
            bound = number(left)
        else:
            continue
        if bound is not None:
            return bound
    return None


def contradicts(expression, values, expected):
    """Whether `expression` (over torch, F, math and `values`, the call's inputs as they were and
    its parameters) gives a value other than `expected`, the one the test compared with: a name
    assigned in two branches (`if shifted: expected = x + 1.5 else: expected = x * 2.0`) is read
    at its last assignment in the text, which need not be the branch that ran. An expression torch
    refuses over these very values (`matmul(rows.T, w)` of the branch for transposed operands:
    "mat1 and mat2 shapes cannot be multiplied") is refuted too, as the reference would fail so.
    False when either cannot be computed or compared otherwise: what differs refutes."""
    torch = torch_module()
    if torch is None:
        return False
    try:
        import numpy as np

        names = dict(values, torch=torch, F=torch.nn.functional, math=math)
        code = compile(ast.parse(expression, mode="eval"), "<expected>", "eval")
        try:
            got = eval(code, names)  # noqa: S307
        except (RuntimeError, IndexError):
            return True
        got = got.detach().cpu().double().numpy() if is_tensor(got) else np.asarray(got, dtype=np.float64)
        want = (
            expected.detach().cpu().double().numpy() if is_tensor(expected) else np.asarray(expected, dtype=np.float64)
        )
        if got.size != want.size:
            return True
        return not np.allclose(got.reshape(-1), want.reshape(-1), rtol=1e-3, atol=1e-5, equal_nan=True)
    except Exception:  # noqa: BLE001 - what cannot be evaluated here is not refuted
        return False


class Unresolved(Exception):
    """A name of the compared expression that no assignment or kernel input explains."""


_DROPPED_METHODS = ("cpu", "npu", "numpy", "detach", "contiguous", "clone", "tolist")


def _flattens(call):
    """`x.flatten()`, `x.ravel()`, `x.reshape(-1)`, `x.view(-1)`."""
    if not isinstance(call.func, ast.Attribute) or call.keywords:
        return False
    if call.func.attr in ("flatten", "ravel"):
        return not call.args
    minus_one = (
        len(call.args) == 1
        and isinstance(call.args[0], ast.UnaryOp)
        and isinstance(call.args[0].op, ast.USub)
        and isinstance(call.args[0].operand, ast.Constant)
        and call.args[0].operand.value == 1
    )
    return call.func.attr in ("reshape", "view") and minus_one


def _changed_in_place(function, name, after, before):
    """The first line after `after` and before `before` that changes `name`'s value in place: an
    item or attribute assignment, an augmented assignment, an in-place method (`add_`) or an
    `out=` argument; 0 when none does."""

    def is_name(node):
        return isinstance(node, ast.Name) and node.id == name

    def base(node):
        while isinstance(node, (ast.Subscript, ast.Attribute)):
            node = node.value
        return node

    lines = []
    for node in ast.walk(function):
        line = getattr(node, "lineno", 0)
        if not after < line < before:
            continue
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if (isinstance(target, (ast.Subscript, ast.Attribute)) and is_name(base(target))) or (
                    isinstance(node, ast.AugAssign) and is_name(target)
                ):
                    lines.append(line)
        elif isinstance(node, ast.Call):
            method = node.func
            if (
                isinstance(method, ast.Attribute)
                and method.attr.endswith("_")
                and not method.attr.startswith("__")
                and is_name(base(method.value))
            ):
                lines.append(line)
            if any(k.arg == "out" and is_name(k.value) for k in node.keywords):
                lines.append(line)
    return min(lines) if lines else 0


class Slicer:
    def __init__(self, recorder, function, local_values, call, flattened=False, global_values=None, excluded=()):
        self.recorder, self.function, self.locals, self.call = recorder, function, local_values, call
        self.excluded = excluded  # (line, col) of assignments found not to be the ones that ran
        self.assignments = []  # (line, col) of the assignments read
        self.flattened = flattened  # the output was compared flattened: so is this, and no longer
        self.used = set()
        self.globals = global_values or {}  # the test module's names: `from torch.nn import functional`
        self.params = set()  # the call's non-tensor arguments the expression reads

    def _assignment(self, name, before):
        found = None
        for node in ast.walk(self.function):
            if (
                isinstance(node, ast.Assign)
                and node.lineno < before
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == name
                and (node.lineno, node.col_offset) not in self.excluded
            ):
                if found is None or node.lineno > found.lineno:
                    found = node
        if found is not None:
            changed = _changed_in_place(self.function, name, found.lineno, before)
            if changed:
                # `golden[0:2] = golden[0:2] + val` after `golden = ...`: no one expression is
                # what the test compares with.
                raise Unresolved(f"{name} is changed in place at line {changed}")
            self.assignments.append((found.lineno, found.col_offset))
        return found

    def resolve(self, node, before, depth):
        if depth > 30:
            raise Unresolved("too deep")
        slicer = self

        class Rewrite(ast.NodeTransformer):
            def visit_Call(self, call):
                # x.cpu(), x.numpy(), x.to(device): the value, wherever it lives.
                if isinstance(call.func, ast.Attribute) and (
                    call.func.attr in _DROPPED_METHODS
                    or (
                        call.func.attr == "to"
                        and len(call.args) == 1
                        and not call.keywords
                        and isinstance(call.args[0], ast.Name)
                        and call.args[0].id.startswith("dev")
                    )
                ):
                    return self.visit(call.func.value)
                if slicer.flattened and _flattens(call):
                    return self.visit(call.func.value)
                # np.array(x) / np.asarray(x) of a tensor: the tensor.
                if (
                    isinstance(call.func, ast.Attribute)
                    and call.func.attr in ("array", "asarray")
                    and isinstance(call.func.value, ast.Name)
                    and call.func.value.id in ("np", "numpy")
                    and len(call.args) == 1
                    and not call.keywords
                ):
                    return self.visit(call.args[0])
                call.keywords = [k for k in call.keywords if k.arg != "device"]
                return self.generic_visit(call)

            def visit_Attribute(self, attribute):
                # config.a_trans of a test's config object: its value, when a plain one.
                owner = attribute.value
                value = slicer.locals.get(owner.id, _MISSING) if isinstance(owner, ast.Name) else _MISSING
                if value is not _MISSING and not is_tensor(value) and not isinstance(value, type(math)):
                    field = getattr(value, attribute.attr, _MISSING)
                    if _plain_constant(field):
                        return ast.parse(repr(field)).body[0].value
                return self.generic_visit(attribute)

            def visit_UnaryOp(self, op):
                # `+x` is `x`, and TorchScript cannot parse a unary plus.
                if isinstance(op.op, ast.UAdd):
                    return self.visit(op.operand)
                return self.generic_visit(op)

            def visit_Name(self, name):
                if name.id in ("torch", "math", "F"):
                    return name
                if name.id not in slicer.locals and _module_spelling(slicer.globals.get(name.id)):
                    return ast.Name(_module_spelling(slicer.globals[name.id]), ast.Load())
                if name.id not in slicer.locals and _plain_constant(slicer.globals.get(name.id, _MISSING)):
                    # A module constant (B, S = 2, 128): its value.
                    return ast.parse(repr(slicer.globals[name.id])).body[0].value
                value = slicer.locals.get(name.id, _MISSING)
                param = slicer.recorder.parameter_of(value, name.id, slicer.call)
                if param:  # torch.full(shape, value): the op's parameters, not their values
                    slicer.params.add(param)
                    return ast.Name(param, ast.Load())
                if isinstance(value, (list, tuple)) and value and all(is_tensor(v) for v in value):
                    # torch.cat(inputs, dim): a list of the call's input tensors
                    found = [slicer.recorder.input_of(v, slicer.call) for v in value]
                    if all(found):
                        slicer.used.update(w[1] for w in found)
                        return ast.List([ast.Name(w[1], ast.Load()) for w in found], ast.Load())
                if is_tensor(value):
                    where = slicer.recorder.input_of(value, slicer.call) or slicer.recorder.updated_by(
                        value, slicer.call
                    )
                    if where:
                        slicer.used.add(where[1])
                        return ast.Name(where[1], ast.Load())
                elif _plain_constant(value):
                    return ast.parse(repr(value)).body[0].value
                elif torch_module() is not None and isinstance(value, torch_module().dtype):
                    return ast.parse(str(value)).body[0].value
                elif _torch_function(value):  # torch_op = OPS[name][1] ... torch_op(a, b)
                    return ast.parse(_torch_function(value)).body[0].value
                assignment = slicer._assignment(name.id, before)
                if assignment is None:
                    raise Unresolved(name.id)
                if draws_random(assignment.value):
                    # Data the test drew that is no input of this call (it made another call's
                    # input): a reference cannot draw it again.
                    raise Unresolved(f"{name.id} is random data, no input of the call")
                return slicer.resolve(assignment.value, assignment.lineno, depth + 1)

        import copy

        return ast.fix_missing_locations(Rewrite().visit(copy.deepcopy(node)))


_MISSING = object()

# torch's and NumPy's random draws (torch.rand, np.random.uniform, x.normal_).
_RANDOM_CALLS = frozenset(
    "rand randn randint rand_like randn_like randint_like normal normal_ uniform uniform_ random random_ "
    "bernoulli multinomial randperm permutation choice".split()
)


def draws_random(node):
    """Whether an expression calls one of torch's or NumPy's random functions."""
    for call in ast.walk(node):
        if isinstance(call, ast.Call):
            name = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
            if name in _RANDOM_CALLS:
                return True
    return False


def _plain_constant(value):
    """Whether a value is written as a literal the reference can hold: a bool, an int, a finite
    float, or a tuple or list of ints."""
    if isinstance(value, (bool, int)) or (isinstance(value, float) and math.isfinite(value)):
        return True
    return isinstance(value, (tuple, list)) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)


def _module_spelling(value):
    """How the reference names a module the test imported under a name of its own
    (`from torch.nn import functional` is F); "" for other modules and values."""
    torch = torch_module()
    if torch is not None and value is torch:
        return "torch"
    if torch is not None and value is torch.nn.functional:
        return "F"
    if value is math:
        return "math"
    return ""


def _torch_function(value):
    """`torch.lt` or `F.silu` for a function torch (or torch.nn.functional) has under its own
    name; "" for anything else."""
    torch = torch_module()
    name = getattr(value, "__name__", None)
    if torch is None or not callable(value) or not isinstance(name, str) or not name.isidentifier():
        return ""
    if getattr(torch, name, None) is value:
        return f"torch.{name}"
    if getattr(torch.nn.functional, name, None) is value:
        return f"F.{name}"
    return ""
