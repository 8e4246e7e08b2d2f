"""Import's reference for a kernel whose test compares its output with a literal value
(`expected = torch.tensor([[20, 24], [44, 52]])`): a torch call over the kernel's inputs that
gives exactly that value. The functions tried are the words of the kernel's name and the pypto
ops its body calls (`matmul_bias_kernel`, `pypto.matmul`); the arguments are the call's tensors
and parameters in the kernel's order, then with the last two dims of a matrix swapped, then in
another order, then with one tensor left out and added to the result (a bias); last, an input
converted to the expected dtype (a cast or a copy). The first candidate whose result equals the
expected value is proposed; the expected value decides, the names only choose what to try."""
import ast
import itertools

FACTORIES = {"empty", "zeros", "ones", "rand", "randn", "full", "tensor", "as_tensor"}
# torch functions that do something besides computing a value: never tried
NOT_COMPUTATIONS = {"save", "load", "compile", "manual_seed", "seed", "set_num_threads", "set_grad_enabled"}
MAX_TRIES = 400  # candidate calls per comparison, to keep import quick on any kernel
MAX_ELEMENTS = 1 << 20  # a literal is small; a larger expected value is not searched


def kernel_ops(tree, kernel):
    """The `pypto.X(...)` functions the kernel's body calls, in order of first use (not its
    annotations: `pypto.Tensor(...)` describes a parameter)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == kernel:
            for call in (n for statement in node.body for n in ast.walk(statement)):
                func = getattr(call, "func", None) if isinstance(call, ast.Call) else None
                if (
                    isinstance(func, ast.Attribute)
                    and isinstance(func.value, ast.Name)
                    and func.value.id == "pypto"
                    and func.attr not in found
                ):
                    found.append(func.attr)
            break
    return found


def _candidates(torch, words):
    seen = []
    for word in words:
        fn = getattr(torch, word, None)
        if (
            word.isidentifier()
            and word.islower()
            and not word.startswith("_")
            and callable(fn)
            and not isinstance(fn, type)
            and word not in FACTORIES
            and word not in NOT_COMPUTATIONS
            and word not in seen
        ):
            seen.append(word)
    return seen


def _copy(argument):
    return argument.value.clone() if argument.tensor else argument.value


class _Argument:
    """One argument as a value and as the text the reference spells it with."""

    def __init__(self, value, text, tensor):
        self.value, self.text, self.tensor = value, text, tensor


def _tensor_forms(torch, name, tensor):
    forms = [_Argument(tensor, name, True)]
    if tensor.dim() >= 2:
        forms.append(_Argument(tensor.transpose(-2, -1), f"{name}.transpose(-2, -1)", True))
    return forms


def _argument_lists(torch, tensors, scalars):
    """Argument lists to try, plainest first: (positional, keywords, added tensor). The
    parameters go after the tensors, by position, by name, or not at all (a tile shape)."""
    plain = [_Argument(t, n, True) for n, t in tensors]
    scalar_args = [_Argument(v, n, False) for n, v in scalars]
    scalar_modes = [(scalar_args, []), ([], scalar_args), ([], [])] if scalars else [([], [])]
    forms = [_tensor_forms(torch, n, t) for n, t in tensors]
    arrangements = [(plain, None)]
    for combo in itertools.product(*forms):
        if any(a.text != n for a, (n, _) in zip(combo, tensors)):
            arrangements.append((list(combo), None))
    if len(tensors) >= 2:
        for left_out in range(len(tensors) - 1, -1, -1):
            rest = [f for k, f in enumerate(forms) if k != left_out]
            added = _Argument(tensors[left_out][1], tensors[left_out][0], True)
            for combo in itertools.product(*rest):
                arrangements.append((list(combo), added))
    for arranged, added in arrangements:
        for positional, keywords in scalar_modes:
            yield arranged + positional, keywords, added
    everything = plain + scalar_args
    for order in itertools.permutations(everything):
        if list(order) != everything:
            yield list(order), [], None


def search(torch, words, tensors, scalars, wanted):
    """The first call `torch.<word>(...)` (or method-free expression) over `tensors` [(name,
    tensor)] and `scalars` [(name, value)] whose result equals `wanted`, as {"expression",
    "inputs", "dtype"}; None when none does."""
    if wanted.numel() > MAX_ELEMENTS:
        return None
    if wanted.is_complex():
        return None
    target = wanted.double()
    tries = 0
    for word in _candidates(torch, words):
        fn = getattr(torch, word)
        for positional, keywords, added in _argument_lists(torch, tensors, scalars):
            tries += 1
            if tries > MAX_TRIES:
                return _conversion(torch, tensors, wanted, target)
            try:
                # Copies: a candidate that writes its arguments leaves the recorded inputs as they were.
                got = fn(*[_copy(a) for a in positional], **{a.text: _copy(a) for a in keywords})
                if added is not None:
                    got = got + added.value
            except Exception:  # noqa: BLE001 - a function that does not take these arguments
                continue
            if not isinstance(got, torch.Tensor) or got.shape != wanted.shape:
                continue
            try:
                equal = torch.allclose(got.double(), target, rtol=1e-3, atol=1e-5, equal_nan=True)
            except Exception:  # noqa: BLE001 - a result torch cannot compare equals nothing
                continue
            if not equal:
                continue
            text = ", ".join([a.text for a in positional] + [f"{a.text}={a.text}" for a in keywords])
            expression = f"torch.{word}({text})" + (f" + {added.text}" if added is not None else "")
            used = [a for a in positional + keywords + ([added] if added else []) if a.tensor]
            names = [n for n, _ in tensors if any(a.text == n or a.text.startswith(n + ".") for a in used)]
            return {
                "expression": expression,
                "inputs": names,
                "dtype": str(got.dtype).replace("torch.", ""),
                "literal": True,
            }
    return _conversion(torch, tensors, wanted, target)


def _conversion(torch, tensors, wanted, target):
    """An input that is the expected value once converted to its dtype (a cast or a copy)."""
    for name, tensor in tensors:
        if tensor.shape != wanted.shape:
            continue
        try:
            got = tensor.to(wanted.dtype)
            equal = torch.allclose(got.double(), target, rtol=1e-3, atol=1e-5, equal_nan=True)
        except Exception:  # noqa: BLE001 - what torch cannot convert equals nothing
            continue
        if equal:
            dtype = str(wanted.dtype).replace("torch.", "")
            same = tensor.dtype == wanted.dtype
            return {
                "expression": name if same else f"{name}.to(torch.{dtype})",
                "inputs": [name],
                "dtype": dtype,
                "literal": True,
            }
    return None
