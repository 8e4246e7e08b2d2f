"""Import's golden source for reference.py: the golden functions of the file, the helpers they
call, their parameters annotated from the recorded calls, module constants as values and the
Python TorchScript does not read respelled."""
import ast
import math


class _Constants(ast.NodeTransformer):
    """Module constants a golden reads (`num_heads = NUM_HEADS`) written as their values: the
    reference is one function, without the file's module around it."""

    def __init__(self, function, values):
        assigned = {
            n.id
            for n in ast.walk(function)
            if isinstance(n, ast.Name) and isinstance(getattr(n, "ctx", None), (ast.Store, ast.Del))
        }
        arguments = function.args.posonlyargs + function.args.args + function.args.kwonlyargs
        assigned |= {a.arg for a in arguments}
        self.values = {
            name: value
            for name, value in values.items()
            if name not in assigned
            and type(value) in (int, float, bool, str)
            and (type(value) is not float or math.isfinite(value))
        }

    def visit_Name(self, node):
        if isinstance(getattr(node, "ctx", None), ast.Load) and node.id in self.values:
            return ast.copy_location(ast.Constant(self.values[node.id]), node)
        return node


class _TorchScriptSpelling(ast.NodeTransformer):
    """A golden's Python spelled as TorchScript reads it, meaning kept: an assert's or raise's
    f-string message as plain text (`f"got {x.dtype}"` -> "got {x.dtype}"; the message is only for
    the failure), and a chained comparison as its parts (`a == b == c` -> `a == b and b == c`)."""

    def visit_Compare(self, node):
        self.generic_visit(node)
        if len(node.ops) < 2:
            return node
        operands = [node.left] + node.comparators
        parts = [
            ast.Compare(left=operands[k], ops=[op], comparators=[operands[k + 1]]) for k, op in enumerate(node.ops)
        ]
        return ast.copy_location(ast.BoolOp(op=ast.And(), values=parts), node)

    def visit_Assert(self, node):
        if isinstance(node.msg, ast.JoinedStr):
            node.msg = ast.copy_location(ast.Constant(_joined_text(node.msg)), node.msg)
        return self.generic_visit(node)

    def visit_Call(self, node):
        # raise ValueError(f"...") and friends
        node.args = [
            ast.copy_location(ast.Constant(_joined_text(a)), a) if isinstance(a, ast.JoinedStr) else a
            for a in node.args
        ]
        return self.generic_visit(node)


def _joined_text(node):
    parts = []
    for value in node.values:
        if isinstance(value, ast.Constant):
            parts.append(str(value.value))
        elif isinstance(value, ast.FormattedValue):
            parts.append("{" + ast.unparse(value.value) + "}")
    return "".join(parts)


def annotated_source(source, function_names, goldens, module_values=None):
    """The golden functions' source, each parameter annotated with the type its recorded call
    had (TorchScript needs them), for the reference; helpers it calls come along, and the module
    constants they read become values."""
    tree = ast.parse(source)
    defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    wanted, order = list(function_names), []
    while wanted:
        name = wanted.pop(0)
        if name in order or name not in defs:
            continue
        order.append(name)
        for node in ast.walk(defs[name]):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in defs:
                wanted.append(node.func.id)
    kinds = {
        "tensor": "Tensor",
        "float": "float",
        "int": "int",
        "bool": "bool",
        "str": "str",
        "int[]": "List[int]",
        "float[]": "List[float]",
    }
    texts = []
    for name in order:
        node = defs[name]
        node.decorator_list = []
        recorded = {a["param"]: a["kind"] for g in goldens if g["function"] == name for a in g["args"]}
        for arg in node.args.posonlyargs + node.args.args + node.args.kwonlyargs:
            if arg.annotation is None and recorded.get(arg.arg) in kinds:
                arg.annotation = ast.Name(kinds[recorded[arg.arg]])
        # The rest, typed by their defaults (`eps=1e-6`): TorchScript wants a default's type.
        positional = node.args.posonlyargs + node.args.args
        with_defaults = list(zip(positional[len(positional) - len(node.args.defaults) :], node.args.defaults))
        with_defaults += [(a, d) for a, d in zip(node.args.kwonlyargs, node.args.kw_defaults) if d is not None]
        for arg, default in with_defaults:
            if not isinstance(default, ast.Constant):
                continue
            if default.value is None:  # gamma=None: TorchScript reads it as Optional[Tensor]
                inner = arg.annotation or ast.Name("Tensor")
                if not ast.unparse(inner).startswith("Optional"):
                    arg.annotation = ast.Subscript(value=ast.Name("Optional"), slice=inner)
            elif arg.annotation is None and type(default.value).__name__ in ("bool", "int", "float", "str"):
                arg.annotation = ast.Name(type(default.value).__name__)
        if module_values:
            node = _Constants(node, module_values).visit(node)
        node = _TorchScriptSpelling().visit(node)
        texts.append(ast.unparse(node))
    return "\n\n\n".join(texts)
