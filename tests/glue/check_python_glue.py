"""Runs an exported package's generated Python glue for real, with Debian's torch and onnx.

    check_python_glue.py PACKAGE_DIR WORK_DIR VIOLATION_JSON

For every case of tests/cases.json: the op on CPU equals the golden output of the reference,
the op on meta tensors gives the golden shapes and dtypes. VIOLATION_JSON names inputs and
parameters that break a constraint and the message expected. A small model using the op is
traced (saved as WORK_DIR/model.pt with its input and output) and exported to ONNX
(WORK_DIR/model.onnx), whose custom node must carry the domain, type, typed attributes,
record and output shape. Prints one line per check and 'N passed, M failed'.
"""
import json
import os
import sys

import numpy
import torch

PACKAGE, WORK, VIOLATION = sys.argv[1], sys.argv[2], sys.argv[3]
MANIFEST = json.load(open(os.path.join(PACKAGE, 'manifest.json')))
sys.path.insert(0, os.path.join(PACKAGE, 'python'))
module = __import__(MANIFEST['namespace'] + '_' + MANIFEST['name'])

passed, failed = 0, 0


def check(name, condition, detail=''):
    global passed, failed
    if condition:
        passed += 1
        print('PASS', name)
    else:
        failed += 1
        print('FAIL', name, detail)


def load(entry):
    array = numpy.load(os.path.join(PACKAGE, entry['file']))
    if entry['dtype'] == 'bfloat16':
        return torch.from_numpy(array.view(numpy.int16)).view(torch.bfloat16)
    return torch.from_numpy(array)


cases = json.load(open(os.path.join(PACKAGE, 'tests', 'cases.json')))['cases']
for case in cases:
    inputs = [load(entry) for entry in case['inputs'].values()]
    params = json.load(open(os.path.join(PACKAGE, case['parameters'])))
    goldens = [load(entry) for entry in case['outputs'].values()]
    result = module.op(*inputs, **params)
    results = list(result) if isinstance(result, (tuple, list)) else [result]
    for got, want in zip(results, goldens):
        try:
            torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-6, equal_nan=True)
            check('cpu equals reference golden: ' + case['name'], True)
        except AssertionError as error:
            check('cpu equals reference golden: ' + case['name'], False, str(error))
    meta = module.op(*[t.to('meta') for t in inputs], **params)
    metas = list(meta) if isinstance(meta, (tuple, list)) else [meta]
    check('meta shapes and dtypes from the rules: ' + case['name'],
          [(list(m.shape), m.dtype, m.device.type) for m in metas] == [(list(g.shape), g.dtype, 'meta') for g in goldens],
          str([(list(m.shape), m.dtype) for m in metas]))

violation = json.load(open(VIOLATION))
if violation:
    bad_inputs = [torch.zeros(i['shape'], dtype=getattr(torch, i['dtype'])) for i in violation['inputs']]
    try:
        module.op(*bad_inputs, **violation['params'])
        check('violated constraint raises', False, 'no error')
    except ValueError as error:
        check('violated constraint raises with the op.json message', violation['message'] in str(error), str(error))


class Model(torch.nn.Module):
    def __init__(self, params):
        super().__init__()
        self.params = params

    def forward(self, *inputs):
        return module.op(*inputs, **self.params)


case = cases[0]
inputs = [load(entry) for entry in case['inputs'].values()]
params = json.load(open(os.path.join(PACKAGE, case['parameters'])))
model = Model(params)
traced = torch.jit.trace(model, tuple(inputs))
check('torch.jit.trace records the op', ('%s::%s' % (MANIFEST['namespace'], MANIFEST['name'])) in str(traced.graph))
traced_out = traced(*inputs)
traced_out = list(traced_out) if isinstance(traced_out, (tuple, list)) else [traced_out]
goldens = [load(entry) for entry in case['outputs'].values()]
check('traced model equals the golden', all(torch.allclose(a.double(), b.double(), rtol=1e-5, atol=1e-6) for a, b in zip(traced_out, goldens)))
torch.jit.save(traced, os.path.join(WORK, 'model.pt'))

import onnx  # noqa: E402

onnx_path = os.path.join(WORK, 'model.onnx')
module.export_onnx(model, tuple(inputs), onnx_path)
exported = onnx.load(onnx_path)
nodes = [n for n in exported.graph.node if n.domain == module.ONNX_DOMAIN and n.op_type == module.OP_TYPE]
check('onnx export has the custom node %s::%s' % (module.ONNX_DOMAIN, module.OP_TYPE), len(nodes) == 1)
if nodes:
    node = nodes[0]
    attributes = {a.name: a for a in node.attribute}
    kinds = {'bool': onnx.AttributeProto.INT, 'int': onnx.AttributeProto.INT, 'float': onnx.AttributeProto.FLOAT,
             'str': onnx.AttributeProto.STRING, 'int[]': onnx.AttributeProto.INTS, 'float[]': onnx.AttributeProto.FLOATS}
    description = json.load(open(os.path.join(PACKAGE, 'op.json')))
    for p in description.get('parameters', []):
        a = attributes.get(p['name'])
        check('attribute %s is typed %s' % (p['name'], p['type']), a is not None and a.type == kinds[p['type']])
        if a is not None:
            value = onnx.helper.get_attribute_value(a)
            want = params[p['name']]
            if p['type'] == 'str':
                value = value.decode()
            if p['type'] in ('float', 'float[]'):
                ok = numpy.allclose(numpy.float32(value), numpy.float32(want))
            else:
                ok = (int(value) if p['type'] == 'bool' else value) == (int(want) if p['type'] == 'bool' else want)
            check('attribute %s has the case value' % p['name'], ok, '%r != %r' % (value, want))
    record = attributes.get('ptowb_record')
    check('ptowb_record is a string attribute', record is not None and record.type == onnx.AttributeProto.STRING)
    if record is not None:
        fields = json.loads(record.s.decode())
        check('record names the op and its description', fields['op'] == module.QUALIFIED_NAME and fields['op_json_sha256'] == MANIFEST['op_json_sha256'])
    types = {v.name: v.type for v in list(exported.graph.value_info) + list(exported.graph.output)}
    for name, golden in zip(node.output, goldens):
        t = types.get(name)
        shape = [d.dim_value for d in t.tensor_type.shape.dim] if t is not None else None
        check('exported output %s has the rule shape' % name, shape == list(golden.shape), str(shape))

print('%d passed, %d failed' % (passed, failed))
sys.exit(1 if failed else 0)
