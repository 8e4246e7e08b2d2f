"""Runs an exported package's generated Python glue for real, with whichever torch runs it:
Debian's torch 1.13 or the newest torch from the cached venv.

    check_python_glue.py PACKAGE_DIR WORK_DIR VIOLATION_JSON

For every case of tests/cases.json: the op on CPU equals the golden output of the reference,
called with keywords and positionally; on meta tensors it gives the golden shapes and dtypes;
its gradients are those of the reference. VIOLATION_JSON names inputs and parameters that break
a constraint and the message expected. A small model using the op is traced (saved as
WORK_DIR/model.pt with its input and output) and exported to ONNX (WORK_DIR/model.onnx, and
WORK_DIR/model-dynamo.onnx where torch has the dynamo exporter), whose custom node must carry
the domain, type, typed attributes, record and output shape. Where torch has them (>= 2.4):
torch.library.opcheck, torch.compile(fullgraph=True, dynamic=True) and torch.export.
Prints one line per check and 'N passed, M failed'.
"""
import json
import os
import re
import sys
import traceback

import numpy
import torch
from glue_checks import all_match, attempt, check, check_backend_against_goldens, finish, load_tensor

PACKAGE, WORK, VIOLATION = sys.argv[1], sys.argv[2], sys.argv[3]
MANIFEST = json.load(open(os.path.join(PACKAGE, "manifest.json")))
DESCRIPTION = json.load(open(os.path.join(PACKAGE, "op.json")))
sys.path.insert(0, os.path.join(PACKAGE, "python"))
module = __import__(MANIFEST["namespace"] + "_" + MANIFEST["name"])
TORCH = tuple(int(part) for part in re.findall(r"\d+", torch.__version__)[:2])
# An op that reads no tensor (pypto.full) runs on no device of an input: its meta shapes come
# from its fake function, it has no gradient and no input to make dynamic.
READS_TENSORS = bool(module.INPUT_NAMES)
print("torch", torch.__version__)


def load(entry):
    return load_tensor(PACKAGE, entry)


def as_list(result):
    return list(result) if isinstance(result, (tuple, list)) else [result]


def same(got, want):
    try:
        torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-6, equal_nan=True)
        return True
    except AssertionError:
        return False


# Positional in declared order, keyword-only from the first required parameter after a defaulted one.
SCHEMA_ARGUMENTS = module.op.default._schema.arguments
KEYWORD_ONLY = {a.name for a in SCHEMA_ARGUMENTS if a.kwarg_only}


def call_positionally(inputs, params):
    complete = {p["name"]: params.get(p["name"], p.get("default")) for p in DESCRIPTION.get("parameters", [])}
    positional = [complete[p["name"]] for p in DESCRIPTION.get("parameters", []) if p["name"] not in KEYWORD_ONLY]
    return module.op(*inputs, *positional, **{name: complete[name] for name in KEYWORD_ONLY})


cases = json.load(open(os.path.join(PACKAGE, "tests", "cases.json")))["cases"]
for case in cases:
    inputs = [load(entry) for entry in case["inputs"].values()]
    params = json.load(open(os.path.join(PACKAGE, case["parameters"])))
    goldens = [load(entry) for entry in case["outputs"].values()]
    results = as_list(module.op(*inputs, **params))
    check(
        "cpu returns one output per golden: " + case["name"],
        len(results) == len(goldens),
        "%d outputs, %d goldens" % (len(results), len(goldens)),
    )
    for got, want in zip(results, goldens):
        check("cpu equals reference golden: " + case["name"], same(got, want), str((got, want)))
    attempt(
        "positional call equals the golden: " + case["name"],
        lambda: all_match(as_list(call_positionally(inputs, params)), goldens, same),
    )
    if READS_TENSORS:
        metas = as_list(module.op(*[t.to("meta") for t in inputs], **params))
    else:
        metas = as_list(module._PT_meta_entry(**params))
    check(
        "meta shapes and dtypes from the rules: " + case["name"],
        [(list(m.shape), m.dtype, m.device.type) for m in metas]
        == [(list(g.shape), g.dtype, "meta" if READS_TENSORS else "cpu") for g in goldens],
        str([(list(m.shape), m.dtype) for m in metas]),
    )


def reference_gradients(inputs, params, weights):
    """Gradients of sum(weight * output) taken through the reference itself, outside the op."""
    leaves = [t.detach().clone().requires_grad_(t.is_floating_point()) for t in inputs]
    named = dict(zip(module.INPUT_NAMES, leaves))
    named.update(params)
    outputs = module._pt_reference_outputs(named)
    total = sum((o * w).sum() for o, w in zip(outputs, weights) if o.requires_grad)
    wanted = [leaf for leaf in leaves if leaf.requires_grad]
    grads = iter(torch.autograd.grad(total, wanted, allow_unused=True))
    return [next(grads) if leaf.requires_grad else None for leaf in leaves]


def check_autograd(case):
    inputs = [load(entry) for entry in case["inputs"].values()]
    params = json.load(open(os.path.join(PACKAGE, case["parameters"])))
    leaves = [t.detach().clone().requires_grad_(t.is_floating_point()) for t in inputs]
    outputs = as_list(module.op(*leaves, **params))
    weights = [
        torch.rand(o.shape, generator=torch.Generator().manual_seed(k)).to(o.dtype) for k, o in enumerate(outputs)
    ]
    differentiable = [o for o in outputs if o.requires_grad]
    if not READS_TENSORS:
        check("outputs of an op that reads no tensor need no gradient: " + case["name"], not differentiable)
        return
    check("outputs of the op carry a gradient function: " + case["name"], differentiable, str(outputs))
    if not differentiable:
        return
    sum((o * w).sum() for o, w in zip(outputs, weights) if o.requires_grad).backward()
    want = reference_gradients(inputs, params, weights)
    for leaf, expected, name in zip(leaves, want, module.INPUT_NAMES):
        if expected is None:
            continue
        got = leaf.grad if leaf.grad is not None else torch.zeros_like(leaf)
        check(
            "gradient of input %s is the reference gradient: %s" % (name, case["name"]),
            same(got, expected),
            str((got, expected)),
        )


for case in cases:
    attempt_name = "autograd runs: " + case["name"]
    try:
        check_autograd(case)
    except Exception:
        check(attempt_name, False, traceback.format_exc())


# A reference whose outputs do not depend differentiably on an input: backward is an error
# that names the op, not a silent zero gradient (torch >= 2.4, where the op has a backward of its
# own; on 1.13 autograd records the reference itself, whose outputs then need no gradient).
def check_not_differentiable(case):
    inputs = [load(entry) for entry in case["inputs"].values()]
    params = json.load(open(os.path.join(PACKAGE, case["parameters"])))
    leaves = [t.detach().clone().requires_grad_(t.is_floating_point()) for t in inputs]
    outputs = [o for o in as_list(module.op(*leaves, **params)) if o.requires_grad]
    if not outputs:
        return
    original = module._pt_reference_outputs
    module._pt_reference_outputs = lambda named: [o.detach() for o in original(named)]
    try:
        sum(o.sum() for o in outputs).backward()
        check("a reference that is not differentiable fails backward", False, "backward passed")
    except RuntimeError as error:
        check(
            "a reference that is not differentiable fails backward, naming the op",
            module.QUALIFIED_NAME in str(error) and "not differentiable" in str(error),
            str(error),
        )
    finally:
        module._pt_reference_outputs = original


try:
    if TORCH >= (2, 4):
        check_not_differentiable(cases[0])
except Exception:
    check("a reference that is not differentiable fails backward", False, traceback.format_exc())

# Backend('sim'): the kernel file in the workbench's simulator, through ptowb's kernel worker
# (PTOWB_KERNEL_WORKER names it), equal to the golden within the description's tolerance.
if os.environ.get("PTOWB_KERNEL_WORKER"):
    check_backend_against_goldens(module, PACKAGE, "sim", "the kernel in the simulator")

has_kernel = getattr(torch._C, "_dispatch_has_kernel_for_dispatch_key", None)
if READS_TENSORS:
    check("the CPU reference is registered for CPU", has_kernel(module.QUALIFIED_NAME, "CPU"))
else:  # no input's device picks the kernel: the reference is the op's default one
    check(
        "the CPU reference is the default kernel",
        has_kernel(module.QUALIFIED_NAME, "CompositeExplicitAutograd"),
    )
for key in ("CUDA", "PrivateUse1"):  # an NPU is a PrivateUse1 device
    check("no kernel is registered for %s" % key, not has_kernel(module.QUALIFIED_NAME, key))

violation = json.load(open(VIOLATION))
if violation:
    bad_inputs = [torch.zeros(i["shape"], dtype=getattr(torch, i["dtype"])) for i in violation["inputs"]]
    try:
        module.op(*bad_inputs, **violation["params"])
        check("violated constraint raises", False, "no error")
    except ValueError as error:
        check("violated constraint raises with the op.json message", violation["message"] in str(error), str(error))


class Model(torch.nn.Module):
    def __init__(self, params):
        super().__init__()
        self.params = params

    def forward(self, *inputs):
        return module.op(*inputs, **self.params)


case = cases[0]
inputs = [load(entry) for entry in case["inputs"].values()]
params = json.load(open(os.path.join(PACKAGE, case["parameters"])))
goldens = [load(entry) for entry in case["outputs"].values()]
model = Model(params)
traced = torch.jit.trace(model, tuple(inputs))
check("torch.jit.trace records the op", ("%s::%s" % (MANIFEST["namespace"], MANIFEST["name"])) in str(traced.graph))
attempt("traced model equals the golden", lambda: all_match(as_list(traced(*inputs)), goldens, same))
torch.jit.save(traced, os.path.join(WORK, "model.pt"))

if TORCH >= (2, 4):
    for c in cases:
        case_inputs = [load(entry) for entry in c["inputs"].values()]
        case_params = json.load(open(os.path.join(PACKAGE, c["parameters"])))
        float_inputs = [t.detach().clone().requires_grad_(t.is_floating_point()) for t in case_inputs]
        attempt(
            "torch.library.opcheck passes every test: " + c["name"],
            lambda: all(
                v == "SUCCESS"
                for v in torch.library.opcheck(module.op.default, tuple(float_inputs), case_params).values()
            ),
        )
    torch._dynamo.reset()
    compiled = torch.compile(model, fullgraph=True, dynamic=True)
    attempt(
        "torch.compile(fullgraph=True, dynamic=True) equals the golden",
        lambda: all_match(as_list(compiled(*inputs)), goldens, same),
    )
    exported_program = torch.export.export(model, tuple(inputs))
    check(
        "torch.export records the op",
        ("%s.%s" % (MANIFEST["namespace"], MANIFEST["name"])) in str(exported_program.graph),
    )
    attempt(
        "the exported program equals the golden",
        lambda: all_match(as_list(exported_program.module()(*inputs)), goldens, same),
    )

import onnx  # noqa: E402


def check_onnx_model(path, exporter):
    exported = onnx.load(path)
    nodes = [n for n in exported.graph.node if n.domain == module.ONNX_DOMAIN and n.op_type == module.OP_TYPE]
    check(
        "%s: onnx export has the custom node %s::%s" % (exporter, module.ONNX_DOMAIN, module.OP_TYPE), len(nodes) == 1
    )
    check(
        "%s: the model imports the op domain" % exporter,
        any(o.domain == module.ONNX_DOMAIN for o in exported.opset_import),
    )
    if not nodes:
        return
    node = nodes[0]
    attributes = {a.name: a for a in node.attribute}
    kinds = {
        "bool": onnx.AttributeProto.INT,
        "int": onnx.AttributeProto.INT,
        "float": onnx.AttributeProto.FLOAT,
        "str": onnx.AttributeProto.STRING,
        "int[]": onnx.AttributeProto.INTS,
        "float[]": onnx.AttributeProto.FLOATS,
    }
    for p in DESCRIPTION.get("parameters", []):
        a = attributes.get(p["name"])
        check(
            "%s: attribute %s is typed %s" % (exporter, p["name"], p["type"]),
            a is not None and a.type == kinds[p["type"]],
        )
        if a is not None:
            value = onnx.helper.get_attribute_value(a)
            want = params.get(p["name"], p.get("default"))
            if p["type"] == "str":
                value = value.decode()
            if p["type"] in ("float", "float[]"):
                ok = numpy.allclose(numpy.float32(value), numpy.float32(want))
            else:
                ok = (int(value) if p["type"] == "bool" else list(value) if p["type"] == "int[]" else value) == (
                    int(want) if p["type"] == "bool" else want
                )
            check("%s: attribute %s has the case value" % (exporter, p["name"]), ok, "%r != %r" % (value, want))
    record = attributes.get("ptowb_record")
    check(
        "%s: ptowb_record is a string attribute" % exporter,
        record is not None and record.type == onnx.AttributeProto.STRING,
    )
    if record is not None:
        fields = json.loads(record.s.decode())
        check(
            "%s: record names the op and its description" % exporter,
            fields["op"] == module.QUALIFIED_NAME and fields["op_json_sha256"] == MANIFEST["op_json_sha256"],
        )
    types = {v.name: v.type for v in list(exported.graph.value_info) + list(exported.graph.output)}
    check("%s: the node has one output per golden" % exporter, len(node.output) == len(goldens), str(list(node.output)))
    for name, golden in zip(node.output, goldens):
        t = types.get(name)
        shape = [d.dim_value for d in t.tensor_type.shape.dim] if t is not None else None
        check("%s: exported output %s has the rule shape" % (exporter, name), shape == list(golden.shape), str(shape))


legacy_path = os.path.join(WORK, "model.onnx")
try:
    module.export_onnx(model, tuple(inputs), legacy_path, dynamo=False)
    check_onnx_model(legacy_path, "dynamo=False")
except Exception:
    check("dynamo=False: onnx export", False, traceback.format_exc())
# A dynamic dim 0 of the first input, named: every output keeps its rank, and an output dim the
# rules copy from that dim keeps its name.
dynamic_path = os.path.join(WORK, "model-dynamic.onnx")


def check_dynamic_batch():
    names = ["input%d" % k for k in range(len(inputs))]
    module.export_onnx(
        model, tuple(inputs), dynamic_path, dynamo=False, input_names=names, dynamic_axes={names[0]: {0: "batch"}}
    )
    dynamic = onnx.load(dynamic_path)
    node = [n for n in dynamic.graph.node if n.domain == module.ONNX_DOMAIN][0]
    types = {v.name: v.type for v in list(dynamic.graph.value_info) + list(dynamic.graph.output)}
    metas = as_list(
        module.op(
            *[
                torch.empty([5] + list(t.shape[1:]), dtype=t.dtype, device="meta") if k == 0 else t.to("meta")
                for k, t in enumerate(inputs)
            ],
            **params
        )
    )
    check(
        "dynamo=False, dynamic batch: one output per golden",
        len(node.output) == len(goldens) == len(metas),
        "%d outputs, %d goldens, %d metas" % (len(node.output), len(goldens), len(metas)),
    )
    for name, golden, meta in zip(node.output, goldens, metas):
        dims = [d.dim_param or d.dim_value for d in types[name].tensor_type.shape.dim] if name in types else None
        want = ["batch" if m != g else g for m, g in zip(meta.shape, golden.shape)]
        check("dynamo=False, dynamic batch: output %s is %s" % (name, want), dims == want, str(dims))


if not READS_TENSORS:
    print("SKIP dynamo=False, dynamic batch: the op reads no tensor")
else:
    try:
        check_dynamic_batch()
    except Exception:
        check("dynamo=False, dynamic batch: onnx export", False, traceback.format_exc())
if TORCH >= (2, 9):
    dynamo_path = os.path.join(WORK, "model-dynamo.onnx")
    try:
        module.export_onnx(model, tuple(inputs), dynamo_path)
        check_onnx_model(dynamo_path, "dynamo=True")
    except Exception:
        check("dynamo=True: onnx export", False, traceback.format_exc())

finish()
