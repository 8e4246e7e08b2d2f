"""Exports a model Linear -> op -> Softmax with a dynamic batch and runs it in ONNX Runtime with
the op registered from the package (its onnxruntime_session()), against torch eager.

    check_onnxruntime.py PACKAGE_DIR WORK_DIR

Runs under the newest torch (the venv has onnxruntime and onnxruntime-extensions). The op's
first input is the Linear's output, with the dynamic dim 0 named 'batch'; its other inputs are
the first case's values. Both exporters are checked: dynamo=True and dynamo=False, each with the
dynamic batch and with the case's static shapes. An op that reads no tensor is checked in
op + x -> Softmax, x of its first output's shape (static: nothing of the op can be dynamic).
Prints one line per check and 'N passed, M failed'.
"""
import json
import os
import sys
import traceback

import numpy
import torch
from glue_checks import check, finish

PACKAGE, WORK = sys.argv[1], sys.argv[2]
MANIFEST = json.load(open(os.path.join(PACKAGE, "manifest.json")))
sys.path.insert(0, os.path.join(PACKAGE, "python"))
module = __import__(MANIFEST["namespace"] + "_" + MANIFEST["name"])


def load(entry):
    return torch.from_numpy(numpy.load(os.path.join(PACKAGE, entry["file"])))


case = json.load(open(os.path.join(PACKAGE, "tests", "cases.json")))["cases"][0]
inputs = [load(entry) for entry in case["inputs"].values()]
params = json.load(open(os.path.join(PACKAGE, case["parameters"])))
READS_TENSORS = bool(module.INPUT_NAMES)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        features = inputs[0].shape[-1]
        self.linear = torch.nn.Linear(features, features, dtype=inputs[0].dtype)
        for k, tensor in enumerate(inputs[1:]):
            self.register_buffer("input%d" % (k + 1), tensor)

    def forward(self, x):
        others = [getattr(self, "input%d" % (k + 1)) for k in range(len(inputs) - 1)]
        y = module.op(self.linear(x), *others, **params)
        y = y[0] if isinstance(y, (tuple, list)) else y
        return torch.softmax(y, -1)


class AddedToTheOp(torch.nn.Module):
    def forward(self, x):
        y = module.op(**params)
        y = y[0] if isinstance(y, (tuple, list)) else y
        return torch.softmax(y + x, -1)


torch.manual_seed(0)
exports = {
    "dynamo=True": dict(dynamo=True, dynamic_shapes={"x": {0: torch.export.Dim("batch", min=1, max=4096)}}),
    "dynamo=False": dict(dynamo=False, dynamic_axes={"x": {0: "batch"}, "out": {0: "batch"}}),
    "dynamo=True, static": dict(dynamo=True),
    "dynamo=False, static": dict(dynamo=False),
}
if READS_TENSORS:
    net = Net().eval()
    shape, dtype = inputs[0].shape, inputs[0].dtype
else:
    net = AddedToTheOp().eval()
    golden = load(next(iter(case["outputs"].values())))
    shape, dtype = golden.shape, golden.dtype
    exports = {name: options for name, options in exports.items() if "static" in name}
batch = shape[0]
example = torch.randn(shape, dtype=dtype)
import onnx  # noqa: E402

for exporter, options in exports.items():
    path = os.path.join(WORK, "net-%s.onnx" % exporter.replace("=", "-").replace(", ", "-"))
    dynamic = "static" not in exporter
    try:
        module.export_onnx(net, (example,), path, input_names=["x"], output_names=["out"], **options)
    except Exception:
        check("%s: Linear -> op -> Softmax exports" % exporter, False, traceback.format_exc())
        continue
    model = onnx.load(path)
    output_dims = [d.dim_param or d.dim_value for d in model.graph.output[0].type.tensor_type.shape.dim]
    if dynamic:
        check("%s: the output keeps the dynamic axis name" % exporter, output_dims[:1] == ["batch"], str(output_dims))
    else:
        check(
            "%s: the output has the case's static shape" % exporter,
            output_dims == list(net(example).shape),
            str(output_dims),
        )
    try:
        session = module.onnxruntime_session(path)
    except Exception:
        check("%s: ONNX Runtime loads the model with the op" % exporter, False, traceback.format_exc())
        continue
    for rows in sorted({batch, 1, 2 * batch + 1}) if dynamic else [batch]:
        x = torch.randn([rows] + list(shape[1:]), dtype=dtype)
        with torch.no_grad():
            want = net(x).numpy()
        got = session.run(None, {"x": x.numpy()})[0]
        close = got.shape == want.shape and numpy.allclose(got, want, rtol=1e-3, atol=1e-4)
        check(
            "%s: ONNX Runtime equals torch eager at batch %d" % (exporter, rows),
            close,
            "%s vs %s, max diff %s"
            % (got.shape, want.shape, numpy.abs(got - want).max() if got.shape == want.shape else "-"),
        )

finish()
