#include "codegen/glue.h"
#include "codegen/glue_facts.h"
#include "codegen/template_text.h"
#include "reference/reference_check.h"
#include "reference/reference_program.h"

#include <algorithm>

namespace ptowb::codegen {

namespace {

// The fixed part of every generated Python module; @NAMES@ are filled in.
constexpr const char* kModuleTemplate = R"PY(@HEADER@"""PyTorch registration, fake/meta implementation, ONNX export and backend switch of
@QUALIFIED@, generated from its op description.

    import @PACKAGE@
    outputs = @PACKAGE@.op(@CALL_EXAMPLE@)     # same as torch.ops.@NAMESPACE@.@NAME@
    with @PACKAGE@.Backend('sim'):             # run the real kernel instead of the reference
        ...

Inputs, then parameters in their declared order, positionally or by keyword. On CPU the op
runs the reference, unless the backend is 'sim' or 'device' (Backend(...) or PTOWB_BACKEND):
those run the kernel with PyPTO. On meta and fake tensors the output shapes and dtypes come
from the description's rules. Gradients are those of the reference.
"""
import contextlib
import importlib.util
import inspect
import os
import re
import threading

import torch
from torch.onnx import symbolic_helper as _pt_symbolic_helper

NAMESPACE = @NAMESPACE_LIT@
NAME = @NAME_LIT@
OP_TYPE = @OP_TYPE_LIT@
VERSION = @VERSION_LIT@
QUALIFIED_NAME = @QUALIFIED_LIT@
SCHEMA = @SCHEMA_LIT@
DOC = @DOC_LIT@
RECORD = @RECORD_LIT@
ONNX_DOMAIN = NAMESPACE
ONNX_OPSET = @ONNX_OPSET@
KERNEL_FILE = @KERNEL_FILE_LIT@
KERNEL_FUNCTION = @KERNEL_FUNCTION_LIT@
INPUT_NAMES = @INPUT_NAMES@
OUTPUT_NAMES = @OUTPUT_NAMES@
BACKWARD_SCHEMA = @BACKWARD_SCHEMA_LIT@
BACKENDS = ('ref', 'sim', 'device')
@PRELUDE@
_PT_DTYPES = {@DTYPE_TABLE@}
_PT_SCALAR_TYPES = {@SCALAR_TYPE_TABLE@}
_PT_ONNX_DTYPES = {@ONNX_TYPE_TABLE@}
_PT_ONNX_TYPES = {dtype: code for code, dtype in _PT_ONNX_DTYPES.items()}
_PT_REQUIRED = object()


def _pt_dt(name):
    return _PT_DTYPES[name]


def _pt_promote(a, b):
    return torch.promote_types(a, b)


def _pt_shape(t):
    return list(t.shape)


def _pt_rank(t):
    return len(t.shape)


def _pt_numel(t):
    return _pt_prod(_pt_shape(t))


def _pt_dtype(t):
    return t.dtype


def _pt_dtype_name(dtype):
    for name, value in _PT_DTYPES.items():
        if value == dtype:
            return name
    return str(dtype)


class _PT_GraphValue:
    """What the rules see of a value in an ONNX graph: sizes (None where unknown) and dtype."""

    def __init__(self, value):
        sizes = _pt_symbolic_helper._get_tensor_sizes(value)
        self.shape = None if sizes is None else [_PT_Dim() if d is None else d for d in sizes]
        scalar = value.type().scalarType()
        self.dtype = _PT_SCALAR_TYPES.get(scalar) if scalar else None


def _pt_rule(what, compute):
    try:
        return compute()
    except RuleError as error:
        raise ValueError('%s: %s: %s' % (QUALIFIED_NAME, what, error)) from None


def _pt_check_input(name, value, dtypes, rank):
    if value.dtype not in dtypes:
        raise TypeError("%s: input '%s' has dtype %s; the op accepts %s"
                        % (QUALIFIED_NAME, name, _pt_dtype_name(value.dtype), ', '.join(_pt_dtype_name(d) for d in dtypes)))
    if rank is not None and len(value.shape) != rank:
        raise ValueError("%s: input '%s' has rank %d (shape %s); the op needs rank %d"
                         % (QUALIFIED_NAME, name, len(value.shape), list(value.shape), rank))


def _pt_outputs(*args):
    """[(shape, dtype)] of every output, from the rules."""
    return [(_pt_rule("shape of output '%s'" % name, shape), _pt_rule("dtype of output '%s'" % name, dtype))
            for name, shape, dtype in _PT_output_rules(*args)]


class Backend:
    """Chooses what runs the op on CPU tensors, for the current thread:

        with Backend('sim'):
            y = op(x, ...)

    'ref' runs the reference, 'sim' and 'device' the kernel through PyPTO. Without a Backend
    block, the PTOWB_BACKEND environment variable decides, and 'ref' when it is not set."""

    _state = threading.local()

    def __init__(self, name):
        if name not in BACKENDS:
            raise ValueError('unknown backend %r; use one of %s' % (name, ', '.join(BACKENDS)))
        self.name = name
        self._previous = []

    def __enter__(self):
        self._previous.append(getattr(Backend._state, 'name', None))
        Backend._state.name = self.name
        return self

    def __exit__(self, *exc):
        Backend._state.name = self._previous.pop()
        return False

    @staticmethod
    def current():
        name = getattr(Backend._state, 'name', None) or os.environ.get('PTOWB_BACKEND') or 'ref'
        if name not in BACKENDS:
            raise ValueError('PTOWB_BACKEND=%r is not a backend; use one of %s' % (name, ', '.join(BACKENDS)))
        return name


_PT_PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_PT_REFERENCE = None
_PT_KERNELS = {}
# reference.py with its import lines blanked (line numbers kept), and what those lines bound.
# It is TorchScript, compiled by torch.jit like the workbench and the C++ op compile it; it is
# never executed as Python.
_PT_REFERENCE_SOURCE = @REFERENCE_SOURCE_LIT@
_PT_REFERENCE_NAMES = {@REFERENCE_NAMES@}
_PT_REFERENCE_FORBIDDEN = (@REFERENCE_FORBIDDEN@)


def _pt_check_reference_graph(block):
    for node in block.nodes():
        kind = node.kind()
        if kind in _PT_REFERENCE_FORBIDDEN or not kind.startswith(('aten::', 'prim::')):
            raise RuntimeError('%s: the reference calls %s, which reaches outside the op' % (QUALIFIED_NAME, kind))
        for inner in node.blocks():
            _pt_check_reference_graph(inner)


def _pt_reference():
    global _PT_REFERENCE
    if _PT_REFERENCE is None:
        import math
        import typing
        import torch.nn.functional
        modules = {'torch': torch, 'torch.nn': torch.nn, 'torch.nn.functional': torch.nn.functional, 'math': math, 'typing': typing}

        def resolve(target):
            # Only names of the modules TorchScript references may import; anything else stays
            # unbound, and compiling says where it is used.
            if target in modules:
                return modules[target]
            module, _, attribute = target.rpartition('.')
            return getattr(modules[module], attribute, None) if module in modules else None
        names = {'torch': torch}
        names.update((alias, resolve(target)) for alias, target in _PT_REFERENCE_NAMES.items() if resolve(target) is not None)
        unit = torch.jit.CompilationUnit()
        unit.define(_PT_REFERENCE_SOURCE, rcb=names.get)
        for function in unit.get_functions():
            _pt_check_reference_graph(function.graph)
        _PT_REFERENCE = unit.find_function(@REFERENCE_FUNCTION_LIT@)
    return _PT_REFERENCE


def _pt_kernel(backend):
    """The kernel function, jitted by PyPTO for the backend's run mode."""
    if backend in _PT_KERNELS:
        return _PT_KERNELS[backend]
    try:
        import pypto
    except Exception as error:
        raise RuntimeError("%s: backend '%s' runs the kernel with PyPTO, which this Python cannot import (%s: %s); "
                           "install PyPTO or use Backend('ref')" % (QUALIFIED_NAME, backend, type(error).__name__, error)) from None
    path = os.environ.get('PTOWB_KERNEL') or os.path.join(_PT_PACKAGE_ROOT, 'kernel', KERNEL_FILE)
    if not os.path.isfile(path):
        raise RuntimeError('%s: the kernel file %s does not exist (set PTOWB_KERNEL to its path)' % (QUALIFIED_NAME, path))
    spec = importlib.util.spec_from_file_location('_ptowb_kernel_' + NAME, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    kernel = getattr(module, KERNEL_FUNCTION)
    original = getattr(kernel, '__wrapped__', None) or getattr(kernel, 'func', None)
    if callable(original):
        mode = pypto.RunMode.SIM if backend == 'sim' else pypto.RunMode.NPU
        kernel = pypto.frontend.jit(runtime_options={'run_mode': mode})(original)
    _PT_KERNELS[backend] = kernel
    return kernel


def _pt_reference_outputs(named):
    reference = _pt_reference()
    # The reference binds arguments by name and may leave parameters out.
    accepted = [argument.name for argument in reference.schema.arguments]
    produced = reference(**{name: value for name, value in named.items() if name in accepted})
    return list(produced) if isinstance(produced, (tuple, list)) else [produced]


def _pt_run(named, expected):
    backend = Backend.current()
    if backend == 'ref':
        produced = _pt_reference_outputs(named)
    else:
        kernel = _pt_kernel(backend)
        produced = [torch.empty(shape, dtype=dtype) for shape, dtype in expected]
        arguments = dict(named)
        arguments.update(zip(OUTPUT_NAMES, produced))
        signature = inspect.signature(getattr(kernel, '__wrapped__', kernel))
        kernel(**{name: arguments[name] for name in signature.parameters if name in arguments})
    if len(produced) != len(expected):
        raise RuntimeError('%s: backend %s returned %d outputs; the op has %d' % (QUALIFIED_NAME, backend, len(produced), len(expected)))
    for name, tensor, (shape, dtype) in zip(OUTPUT_NAMES, produced, expected):
        if list(tensor.shape) != list(shape) or tensor.dtype != dtype:
            raise RuntimeError("%s: backend %s gave output '%s' shape %s %s; the rules give %s %s"
                               % (QUALIFIED_NAME, backend, name, list(tensor.shape), _pt_dtype_name(tensor.dtype), list(shape), _pt_dtype_name(dtype)))
    return produced[0] if len(produced) == 1 else tuple(produced)


def _pt_differentiable(tensor):
    return tensor.is_floating_point() or tensor.is_complex()


def _pt_gradients(grads, inputs, named_parameters):
    """The gradient of every input: the reference differentiated by autograd (whatever backend
    ran the forward pass; the kernel has no gradient of its own). Zeros for inputs that are not
    floating point. An op's kernel runs below autograd, whose dispatch keys it cannot turn back
    on; a thread of its own starts with them on."""
    result = []

    def differentiate():
        try:
            result.append(_pt_reference_gradients(grads, inputs, named_parameters))
        except BaseException as error:
            result.append(error)
    worker = threading.Thread(target=differentiate, name='ptowb-reference-gradient')
    worker.start()
    worker.join()
    if isinstance(result[0], BaseException):
        raise result[0]
    return result[0]


def _pt_reference_gradients(grads, inputs, named_parameters):
    with torch.enable_grad():
        leaves = [t.detach().requires_grad_(_pt_differentiable(t)) for t in inputs]
        named = dict(zip(INPUT_NAMES, leaves))
        named.update(named_parameters)
        outputs = _pt_reference_outputs(named)
        pairs = [(o, g) for o, g in zip(outputs, grads) if o.requires_grad]
        wanted = [leaf for leaf in leaves if leaf.requires_grad]
        if not pairs or not wanted:
            raise RuntimeError('%s: the reference is not differentiable (no output depends differentiably on an input), '
                               'so the op has no gradient' % QUALIFIED_NAME)
        computed = iter(torch.autograd.grad([o for o, _ in pairs], wanted, [g for _, g in pairs], allow_unused=True))
    result = []
    for leaf in leaves:
        grad = next(computed) if leaf.requires_grad else None
        result.append(torch.zeros_like(leaf) if grad is None else grad)
    return result


def _pt_empty_outputs(device, args):
    tensors = [torch.empty(shape, dtype=dtype, device=device) for shape, dtype in _pt_outputs(*args)]
    return tensors[0] if len(tensors) == 1 else tuple(tensors)

@GENERATED@

def _pt_defined():
    # Unknown ops raise before torch 2.x and give (None, None) in newer ones.
    try:
        found = torch._C._jit_get_operation(QUALIFIED_NAME)
    except RuntimeError:
        return False
    return (found[0] if isinstance(found, tuple) else found) is not None


def _pt_torch_version():
    return tuple(int(part) for part in re.findall(r'\d+', torch.__version__)[:2])


_PT_LIBRARIES = []
if _pt_defined():
    pass  # the C++ op library (or another import) registered the op already
elif _pt_torch_version() >= (2, 4):
    # device_types: the CPU reference is the op's CPU kernel only; on any other device (an NPU)
    # the op has no kernel until that device's library registers one.
    _PT_CUSTOM_OP = torch.library.custom_op(QUALIFIED_NAME, _PT_cpu_entry, mutates_args=(), device_types='cpu', schema=SCHEMA[len(NAME):])
    _PT_CUSTOM_OP.register_fake(_PT_meta_entry)
    # The backward pass is an op of its own, so torch.compile and torch.export trace it with
    # fake tensors instead of looking into the reference.
    _PT_BACKWARD_OP = torch.library.custom_op(QUALIFIED_NAME + '_ptowb_backward', _PT_backward_entry, mutates_args=(),
                                              device_types='cpu', schema=BACKWARD_SCHEMA[len(NAME + '_ptowb_backward'):])
    _PT_BACKWARD_OP.register_fake(_PT_backward_fake)
    _PT_CUSTOM_OP.register_autograd(_PT_backward, setup_context=_PT_setup_context)
else:
    if hasattr(torch.library, 'fallthrough_kernel'):  # torch 2.x: Python knows FRAGMENT libraries
        _PT_LIBRARIES.append(torch.library.Library(NAMESPACE, 'FRAGMENT'))
        _PT_LIBRARIES[0].define(SCHEMA)
    else:  # torch 1.13: only one Python DEF library per namespace, so define through a C++ fragment
        _PT_LIBRARIES.append(torch._C._dispatch_library('FRAGMENT', NAMESPACE, '', __file__, 0))
        _PT_LIBRARIES[0].define(SCHEMA)
    _PT_LIBRARIES.append(torch.library.Library(NAMESPACE, 'IMPL'))
    _PT_LIBRARIES[-1].impl(NAME, _PT_cpu_entry, 'CPU')
    _PT_LIBRARIES[-1].impl(NAME, _PT_meta_entry, 'Meta')
    # Meta tensors dispatch through AutogradMeta first, which has no fallthrough before 2.x.
    _PT_LIBRARIES[-1].impl(NAME, _PT_meta_entry, 'AutogradMeta')

op = getattr(getattr(torch.ops, NAMESPACE), NAME)


def __getattr__(attribute):
    # The op under its own name, without making that name a global that could shadow one.
    if attribute == NAME:
        return op
    raise AttributeError('module %r has no attribute %r' % (__name__, attribute))


torch.onnx.register_custom_op_symbolic(QUALIFIED_NAME, _PT_symbolic, 9)


class _PT_ProtoValue:
    """What the rules see of a value in an ONNX model: its shape and dtype when known."""

    def __init__(self, value_type):
        tensor = value_type.tensor_type if value_type is not None else None
        known = tensor is not None and tensor.HasField('shape')
        self.shape = [d.dim_value if d.HasField('dim_value') else _PT_Dim(d.dim_param) for d in tensor.shape.dim] if known else None
        self.dtype = _PT_ONNX_DTYPES.get(tensor.elem_type) if tensor is not None else None


def _pt_node_attribute(node, name, default, kind):
    import onnx
    for attribute in node.attribute:
        if attribute.name == name:
            value = onnx.helper.get_attribute_value(attribute)
            return value.decode('utf-8') if kind == 'str' else [float(v) for v in value] if kind == 'float[]' else \
                [int(v) for v in value] if kind == 'int[]' else bool(value) if kind == 'bool' else float(value) if kind == 'float' else value
    if default is _PT_REQUIRED:
        raise ValueError("%s: node %s has no attribute '%s'" % (QUALIFIED_NAME, node.name, name))
    return default


def stamp_onnx_types(model):
    """Sets the type and shape of this op's outputs in an ONNX model from the rules, then lets
    ONNX propagate them to every value after it. torch before 2.0 drops the types a symbolic
    function sets, so export_onnx() calls this; it also repairs models exported elsewhere."""
    import onnx
    for _ in range(len(model.graph.node) + 1):
        types = _pt_value_types(model)
        changed = False
        for node in model.graph.node:
            if node.domain != ONNX_DOMAIN or node.op_type != OP_TYPE:
                continue
            arguments = [_PT_ProtoValue(types.get(name)) for name in node.input] + _PT_NODE_PARAMETERS(node)
            for name, (_, shape, dtype) in zip(node.output, _PT_output_rules(*arguments)):
                try:
                    dims = [d.name if isinstance(d, _PT_Dim) else d for d in shape()]  # a name, or None: unknown
                    value = onnx.helper.make_tensor_value_info(name, _PT_ONNX_TYPES[dtype()], dims)
                except (RuleError, TypeError, KeyError, ValueError):
                    continue
                existing = [v for v in list(model.graph.value_info) + list(model.graph.output) if v.name == name]
                if existing and existing[0].type == value.type:
                    continue
                for v in existing:
                    v.type.CopyFrom(value.type)
                if not existing:
                    model.graph.value_info.append(value)
                changed = True
        # Values after the op were typed before its outputs were known: let ONNX redo them.
        if not changed:
            return onnx.shape_inference.infer_shapes(model)
        stamped = {n for node in model.graph.node if node.domain == ONNX_DOMAIN and node.op_type == OP_TYPE for n in node.output}
        keep = [v for v in model.graph.value_info if v.name in stamped]
        del model.graph.value_info[:]
        model.graph.value_info.extend(keep)
        for output in model.graph.output:
            if output.name not in stamped:
                output.type.tensor_type.ClearField('shape')
    return model


_PT_ONNXRUNTIME_OPS = {}


# Element types ONNX Runtime's Python custom ops cannot pass: they travel as float32, exactly,
# through a Cast on each side of the op.
_PT_ONNXRUNTIME_WIDENED = (torch.float16, torch.bfloat16)


def _pt_onnxruntime_type(dtype):
    return torch.float32 if dtype in _PT_ONNXRUNTIME_WIDENED else dtype


def _pt_onnxruntime_op(input_types, output_types):
    """Registers (once per dtype signature) the onnxruntime-extensions Python op that runs this
    op on the arrays ONNX Runtime hands it, and returns its op type."""
    import json
    import numpy
    import onnx
    from onnxruntime_extensions import PyCustomOpDef, onnx_op
    signature = (tuple(input_types), tuple(output_types))
    if signature not in _PT_ONNXRUNTIME_OPS:
        def kind(dtype):
            code = _PT_ONNX_TYPES[_pt_onnxruntime_type(dtype)]
            return getattr(PyCustomOpDef, 'dt_' + onnx.TensorProto.DataType.Name(code).lower())
        op_type = '%s_%s_%d' % (NAMESPACE, OP_TYPE, len(_PT_ONNXRUNTIME_OPS))

        def run(*arrays, ptowb_parameters):
            tensors = [torch.from_numpy(numpy.ascontiguousarray(a)).to(dtype) for a, dtype in zip(arrays, input_types)]
            outputs = op(*tensors, **json.loads(ptowb_parameters))
            outputs = outputs if isinstance(outputs, (tuple, list)) else [outputs]
            outputs = [t.to(_pt_onnxruntime_type(t.dtype)).numpy() for t in outputs]
            return tuple(outputs) if len(outputs) > 1 else outputs[0]
        onnx_op(op_type=op_type, inputs=[kind(d) for d in input_types], outputs=[kind(d) for d in output_types],
                attrs={'ptowb_parameters': PyCustomOpDef.dt_string})(run)
        _PT_ONNXRUNTIME_OPS[signature] = op_type
    return _PT_ONNXRUNTIME_OPS[signature]


def _pt_value_types(model):
    """The type of every value of a model that ONNX shape inference knows, initializers too."""
    import onnx
    inferred = onnx.shape_inference.infer_shapes(model)
    types = {t.name: onnx.helper.make_tensor_type_proto(t.data_type, list(t.dims)) for t in model.graph.initializer}
    types.update((v.name, v.type) for v in list(inferred.graph.input) + list(inferred.graph.value_info) + list(inferred.graph.output))
    return types


def onnxruntime_session(model, sess_options=None, **kwargs):
    """An onnxruntime.InferenceSession of an ONNX model (a path or a ModelProto) that holds this
    op, with the op run by this package on CPU (the reference, or the backend op() uses) through
    onnxruntime-extensions' Python custom ops: a check of an exported model before ATC. Those
    ops live in their own domain and take string attributes only, so the session runs a copy of
    the model in which each node of this op names its registered Python op and carries its
    attributes as one JSON string; the model passed in is not changed."""
    import json
    import onnx
    import onnxruntime
    import onnxruntime_extensions
    if isinstance(model, (str, os.PathLike)):
        model = onnx.load(model)
    else:
        copy = onnx.ModelProto()
        copy.CopyFrom(model)
        model = copy
    types = _pt_value_types(model)
    nodes = []
    for node in model.graph.node:
        if node.domain != ONNX_DOMAIN or node.op_type != OP_TYPE:
            nodes.append(node)
            continue
        inputs = [_PT_ProtoValue(types.get(name)) for name in node.input]
        if any(value.dtype is None for value in inputs):
            raise ValueError('%s: node %s: the element types of its inputs are not known' % (QUALIFIED_NAME, node.name))
        parameters = _PT_NODE_PARAMETERS(node)
        output_types = [_pt_rule("dtype of output '%s'" % name, dtype) for name, _, dtype in _PT_output_rules(*inputs, *parameters)]
        names = [name for name, _, _, _, _ in _PT_ONNX_PARAMETERS]
        call = onnx.helper.make_node(_pt_onnxruntime_op([value.dtype for value in inputs], output_types), list(node.input), list(node.output),
                                     name=node.name, domain=onnxruntime_extensions.default_opset_domain(),
                                     ptowb_parameters=json.dumps(dict(zip(names, parameters))))
        for k, value in enumerate(inputs):
            if value.dtype in _PT_ONNXRUNTIME_WIDENED:
                call.input[k] = '%s/ptowb_widened_input_%d' % (node.name, k)
                nodes.append(onnx.helper.make_node('Cast', [node.input[k]], [call.input[k]], to=onnx.TensorProto.FLOAT))
        nodes.append(call)
        for k, dtype in enumerate(output_types):
            if dtype in _PT_ONNXRUNTIME_WIDENED:
                call.output[k] = '%s/ptowb_widened_output_%d' % (node.name, k)
                nodes.append(onnx.helper.make_node('Cast', [call.output[k]], [node.output[k]], to=_PT_ONNX_TYPES[dtype]))
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    if not any(o.domain == onnxruntime_extensions.default_opset_domain() for o in model.opset_import):
        model.opset_import.append(onnx.helper.make_opsetid(onnxruntime_extensions.default_opset_domain(), 1))
    options = sess_options or onnxruntime.SessionOptions()
    options.register_custom_ops_library(onnxruntime_extensions.get_library_path())
    kwargs.setdefault('providers', ['CPUExecutionProvider'])
    return onnxruntime.InferenceSession(model.SerializeToString(), options, **kwargs)


def _pt_onnx_attribute_value(value, kind):
    return int(value) if kind == 'INT' else float(value) if kind == 'FLOAT' else list(value) if kind in ('INTS', 'FLOATS') else value


def onnx_translation():
    """This op's entry of torch.onnx.export(..., dynamo=True, custom_translation_table=...): an
    onnxscript function that records one node of the op's domain, with typed attributes and the
    record. Output types and dims (symbolic ones by name) come from the op's fake tensors."""
    import inspect
    import onnx
    import onnxscript
    from onnx.defs import OpSchema
    from onnxscript import ir
    tensor_types = ['tensor(%s)' % onnx.TensorProto.DataType.Name(code).lower() for code in _PT_ONNX_DTYPES]
    schema = OpSchema(
        OP_TYPE, ONNX_DOMAIN, 1,
        inputs=[OpSchema.FormalParameter(name, 'T%d' % k) for k, name in enumerate(INPUT_NAMES)],
        outputs=[OpSchema.FormalParameter(name, 'U%d' % k) for k, name in enumerate(OUTPUT_NAMES)],
        type_constraints=[('%s%d' % (prefix, k), tensor_types, '') for prefix, names in (('T', INPUT_NAMES), ('U', OUTPUT_NAMES))
                          for k in range(len(names))],
        attributes=[OpSchema.Attribute(name, getattr(OpSchema.AttrType, kind), '') for name, kind, _, _, _ in _PT_ONNX_PARAMETERS] +
                   [OpSchema.Attribute('ptowb_record', OpSchema.AttrType.STRING, '')])
    node = onnxscript.values.Op(onnxscript.values.Opset(ONNX_DOMAIN, 1), OP_TYPE, schema)
    signature = inspect.Signature(
        [inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD) for name in INPUT_NAMES] +
        [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY if keyword_only else inspect.Parameter.POSITIONAL_OR_KEYWORD,
                           default=inspect.Parameter.empty if default is _PT_REQUIRED else default, annotation=annotation)
         for name, _, default, keyword_only, annotation in _PT_ONNX_PARAMETERS])

    def translate(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        values = bound.arguments
        attributes = {name: ir.Attr(name, getattr(ir.AttributeType, kind), _pt_onnx_attribute_value(values[name], kind))
                      for name, kind, _, _, _ in _PT_ONNX_PARAMETERS}
        attributes['ptowb_record'] = ir.Attr('ptowb_record', ir.AttributeType.STRING, RECORD)
        return node(*[values[name] for name in INPUT_NAMES], **attributes)

    # The exporter reads the signature to tell inputs (no annotation) from attributes.
    translate.__signature__ = signature
    translate.__annotations__ = {name: annotation for name, _, _, _, annotation in _PT_ONNX_PARAMETERS}
    return translate


def export_onnx(model, args, f, **kwargs):
    """torch.onnx.export with this op as a node of its own domain, typed attributes and the
    record, and its output types from the rules. With dynamo=True (the default from torch 2.9)
    the op is translated by onnx_translation(); otherwise by its registered symbolic function."""
    import onnx
    if kwargs.setdefault('dynamo', _pt_torch_version() >= (2, 9)):
        # The dynamo exporter writes opset 18 and later only; dynamo=False writes older ones.
        kwargs.setdefault('opset_version', max(ONNX_OPSET, 18))
        table = dict(kwargs.pop('custom_translation_table', None) or {})
        table.setdefault(op.default, onnx_translation())
        return torch.onnx.export(model, args, f, custom_translation_table=table, **kwargs)
    kwargs.setdefault('opset_version', ONNX_OPSET)
    if _pt_torch_version() < (2, 9):  # the default, and before 2.5 not an argument
        del kwargs['dynamo']
    custom_opsets = dict(kwargs.pop('custom_opsets', None) or {})
    custom_opsets.setdefault(ONNX_DOMAIN, 1)
    import warnings
    with warnings.catch_warnings():
        # torch before 2.0 warns that it cannot infer the op's output; stamp_onnx_types does.
        warnings.filterwarnings('ignore', message=re.escape('The shape inference of %s::%s' % (ONNX_DOMAIN, OP_TYPE)))
        torch.onnx.export(model, args, f, custom_opsets=custom_opsets, **kwargs)
    if isinstance(f, (str, os.PathLike)):
        onnx.save(stamp_onnx_types(onnx.load(f)), f)
)PY";

// torch >= 2.4 autograd: setup_context saves the inputs and parameters, backward calls the
// op's backward op (see _pt_gradients) and returns one gradient per positional argument.
std::string backwardFunctions(const OpSpec& spec, const PythonNames& names, std::size_t keywordOnly)
{
    const std::size_t inputCount = spec.inputs.size();
    std::string params, namedParams, parameterValues;
    for (std::size_t k = 0; k < spec.params.size(); ++k) {
        params += ", " + names.params[k];
        namedParams += (namedParams.empty() ? "" : ", ") + pythonStringLiteral(spec.params[k].name) + ": " + names.params[k];
        parameterValues += k < keywordOnly ? "inputs[" + std::to_string(inputCount + k) + "], "
                                           : "keyword_only_inputs[" + pythonStringLiteral(spec.params[k].name) + "], ";
    }
    const bool hasKeywordOnly = keywordOnly < spec.params.size();
    std::string gen;
    gen += "\n\ndef _PT_setup_context(ctx, inputs, " + std::string(hasKeywordOnly ? "keyword_only_inputs, " : "") + "output):\n";
    gen += "    ctx.save_for_backward(*inputs[:" + std::to_string(inputCount) + "])\n";
    gen += "    ctx.ptowb_parameters = [" + parameterValues + "]\n";
    gen += "\n\ndef _PT_backward(ctx, *grads):\n";
    gen += "    inputs = ctx.saved_tensors\n";
    gen += "    computed = _PT_BACKWARD_OP(list(grads), list(inputs), *ctx.ptowb_parameters)\n";
    gen += "    return tuple(g if _pt_differentiable(t) else None for g, t in zip(computed, inputs)) + (None,) * " +
           std::to_string(std::min(keywordOnly, spec.params.size())) + "\n";
    gen += "\n\ndef _PT_backward_entry(grads, inputs" + params + "):\n";
    gen += "    return _pt_gradients(grads, inputs, {" + namedParams + "})\n";
    gen += "\n\ndef _PT_backward_fake(grads, inputs" + params + "):\n";
    gen += "    return [torch.empty_like(t) for t in inputs]\n";
    return gen;
}

// The backward op's schema: the output gradients, the inputs and every parameter, positional.
std::string backwardSchema(const OpSpec& spec, const PythonNames& names)
{
    std::string schema = spec.name + "_ptowb_backward(Tensor[] grads, Tensor[] inputs";
    for (std::size_t k = 0; k < spec.params.size(); ++k)
        schema += ", " + std::string(paramTypeInfo(spec.params[k].type).torchSchema) + " " + names.params[k];
    return schema + ") -> Tensor[]";
}

} // namespace

std::vector<GeneratedFile> generatePythonGlue(const GlueSource& source)
{
    const OpSpec& spec = source.spec;
    const GlueFacts facts = glueFacts(source);
    const PythonNames names = pythonNames(spec);

    std::string args, namedArgs, callExample, entryParams, symbolicDescriptors;
    for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
        args += (args.empty() ? "" : ", ") + names.inputs[k];
        namedArgs += (namedArgs.empty() ? "" : ", ") + pythonStringLiteral(spec.inputs[k].name) + ": " + names.inputs[k];
        callExample += (callExample.empty() ? "" : ", ") + spec.inputs[k].name;
        entryParams += (entryParams.empty() ? "" : ", ") + spec.inputs[k].name;
    }
    for (std::size_t k = 0; k < spec.inputs.size(); ++k) symbolicDescriptors += k ? ", 'v'" : "'v'";
    // The entry points take parameters as the schema declares them (see firstKeywordOnlyParam).
    const std::size_t keywordOnly = firstKeywordOnlyParam(spec);
    std::string entryCall;
    for (const auto& in : spec.inputs) entryCall += (entryCall.empty() ? "" : ", ") + in.name;
    for (std::size_t k = 0; k < spec.params.size(); ++k) {
        const ParamSpec& p = spec.params[k];
        args += (args.empty() ? "" : ", ") + names.params[k];
        namedArgs += (namedArgs.empty() ? "" : ", ") + pythonStringLiteral(p.name) + ": " + names.params[k];
        // The docstring's example names the required parameters only: no value from the
        // description ever enters a docstring, where a quote could end it.
        if (!p.defaultValue) callExample += (callExample.empty() ? "" : ", ") + p.name + "=...";
        if (k == keywordOnly) entryParams += entryParams.empty() ? "*" : ", *";
        entryParams += (entryParams.empty() ? "" : ", ") + p.name + (p.defaultValue ? "=" + pythonLiteral(*p.defaultValue) : "");
        entryCall += (entryCall.empty() ? "" : ", ") + p.name;
        symbolicDescriptors += std::string(symbolicDescriptors.empty() ? "" : ", ") + "'" + std::string(paramTypeInfo(p.type).torchOnnxArg) + "'";
    }

    std::string gen;
    gen += "\ndef _PT_check(" + args + "):\n";
    gen += "    \"\"\"Input dtypes and ranks, then the description's constraints.\"\"\"\n";
    for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
        const InputSpec& in = spec.inputs[k];
        std::string dtypes;
        for (DType d : in.dtypes) dtypes += "torch." + std::string(dtypeInfo(d).torchName) + ", ";
        gen += "    _pt_check_input(" + pythonStringLiteral(in.name) + ", " + names.inputs[k] + ", (" + dtypes + "), " +
               (in.rank ? std::to_string(*in.rank) : "None") + ")\n";
    }
    for (const auto& c : spec.constraints) {
        gen += "    if not _pt_rule(" + pythonStringLiteral("constraint " + c.check) + ", lambda: " + emitPython(c.rule->root(), names) + "):\n";
        gen += "        raise ValueError(QUALIFIED_NAME + ': ' + " + pythonStringLiteral(c.message.empty() ? "constraint " + c.check + " does not hold" : c.message) + ")\n";
    }
    gen += "\n\ndef _PT_output_rules(" + args + "):\n";
    gen += "    return [\n";
    for (const auto& out : spec.outputs)
        gen += "        (" + pythonStringLiteral(out.name) + ",\n         lambda: " + emitPython(out.shape->root(), names) +
               ",\n         lambda: " + emitPython(out.dtype->root(), names) + "),\n";
    gen += "    ]\n";

    const std::string firstInput = spec.inputs.empty() ? "" : names.inputs[0];
    gen += "\n\ndef _PT_cpu(" + args + "):\n";
    gen += "    _PT_check(" + args + ")\n";
    gen += "    return _pt_run({" + namedArgs + "}, _pt_outputs(" + args + "))\n";
    gen += "\n\ndef _PT_meta(" + args + "):\n";
    gen += "    _PT_check(" + args + ")\n";
    gen += "    return _pt_empty_outputs(" + (firstInput.empty() ? std::string("'meta'") : firstInput + ".device") + ", (" + args + (args.empty() ? "" : ",") + "))\n";
    gen += "\n\n# Entry points with the schema's argument names; torch calls them positionally or by keyword.\n";
    gen += "def _PT_cpu_entry(" + entryParams + "):\n    return _PT_cpu(" + entryCall + ")\n";
    gen += "\n\ndef _PT_meta_entry(" + entryParams + "):\n    return _PT_meta(" + entryCall + ")\n";
    gen += backwardFunctions(spec, names, keywordOnly);

    // ONNX: the custom-domain node, typed attributes, the record, and output types from the rules.
    gen += "\n\n@_pt_symbolic_helper.parse_args(" + symbolicDescriptors + ")\n";
    gen += "def _PT_symbolic(g" + std::string(args.empty() ? "" : ", ") + args + "):\n";
    gen += "    node = g.op(ONNX_DOMAIN + '::' + OP_TYPE";
    for (const auto& n : names.inputs) gen += ", " + n;
    gen += ", outputs=" + std::to_string(spec.outputs.size());
    for (std::size_t k = 0; k < spec.params.size(); ++k) {
        const ParamSpec& p = spec.params[k];
        const std::string suffix(paramTypeInfo(p.type).torchOnnxSuffix);
        std::string value = names.params[k];
        if (p.type == ParamType::Bool) value = "int(" + value + ")";
        if (p.type == ParamType::IntList || p.type == ParamType::FloatList) value = "list(" + value + ")";
        gen += ",\n                **{" + pythonStringLiteral(p.name + "_" + suffix) + ": " + value + "}";
    }
    gen += ",\n                ptowb_record_s=RECORD)\n";
    gen += "    outputs = list(node) if isinstance(node, (tuple, list)) else [node]\n";
    std::string graphArgs;
    for (const auto& n : names.inputs) graphArgs += (graphArgs.empty() ? "" : ", ") + std::string("_PT_GraphValue(") + n + ")";
    for (const auto& n : names.params) graphArgs += (graphArgs.empty() ? "" : ", ") + n;
    gen += "    rules = _PT_output_rules(" + graphArgs + ")\n";
    gen += "    for value, (name, shape, dtype) in zip(outputs, rules):\n";
    gen += "        value_type = value.type()\n";
    gen += "        try:  # a rule over an unknown (dynamic) dim leaves that part of the type unknown\n";
    gen += "            value_type = value_type.with_dtype(dtype())\n";
    gen += "        except (RuleError, TypeError, KeyError, AttributeError):\n";
    gen += "            pass\n";
    gen += "        try:\n";
    gen += "            value_type = value_type.with_sizes([None if isinstance(d, _PT_Dim) else d for d in shape()])\n";
    gen += "        except (RuleError, TypeError, KeyError, AttributeError):\n";
    gen += "            pass\n";
    gen += "        value.setType(value_type)\n";
    gen += "    return node\n";

    gen += "\n\n# (name, ONNX attribute type, default, keyword-only, Python type) of every parameter.\n";
    gen += "_PT_ONNX_PARAMETERS = (\n";
    for (std::size_t k = 0; k < spec.params.size(); ++k) {
        const ParamSpec& p = spec.params[k];
        const ParamTypeInfo& info = paramTypeInfo(p.type);
        const std::string element(info.name.substr(0, info.name.find('[')));
        const std::string annotation = info.name.ends_with("[]") ? "list[" + element + "]" : element;
        gen += "    (" + pythonStringLiteral(p.name) + ", " + pythonStringLiteral(std::string(info.onnxAttrType)) + ", " +
               (p.defaultValue ? pythonLiteral(*p.defaultValue) : "_PT_REQUIRED") + ", " + (k >= keywordOnly ? "True" : "False") + ", " +
               annotation + "),\n";
    }
    gen += ")\n";
    gen += "\n\ndef _PT_NODE_PARAMETERS(node):\n    return [\n";
    for (const auto& p : spec.params)
        gen += "        _pt_node_attribute(node, " + pythonStringLiteral(p.name) + ", " + (p.defaultValue ? pythonLiteral(*p.defaultValue) : "_PT_REQUIRED") +
               ", " + pythonStringLiteral(std::string(paramTypeInfo(p.type).name)) + "),\n";
    gen += "    ]\n";

    std::string dtypeTable, scalarTable, onnxTable;
    for (const auto& info : allDTypes()) {
        dtypeTable += (dtypeTable.empty() ? "" : ", ") + pythonStringLiteral(std::string(info.name)) + ": torch." + std::string(info.torchName);
        scalarTable += (scalarTable.empty() ? "" : ", ") + pythonStringLiteral(std::string(info.torchCpp)) + ": torch." + std::string(info.torchName);
        onnxTable += (onnxTable.empty() ? "" : ", ") + std::to_string(info.onnxElementType) + ": torch." + std::string(info.torchName);
    }
    std::string outputNames = "(";
    for (const auto& out : spec.outputs) outputNames += pythonStringLiteral(out.name) + ", ";
    outputNames += ")";
    std::string inputNames = "(";
    for (const auto& in : spec.inputs) inputNames += pythonStringLiteral(in.name) + ", ";
    inputNames += ")";
    const std::string kernelFile = spec.kernel.file.substr(spec.kernel.file.find_last_of('/') + 1);
    std::vector<std::pair<std::string, std::string>> referenceAliases;
    const std::string referenceSource = stripImports(source.reference, referenceAliases);
    std::string referenceNames, referenceForbidden;
    for (const auto& [alias, target] : referenceAliases)
        referenceNames += (referenceNames.empty() ? "" : ", ") + pythonStringLiteral(alias) + ": " +
                          pythonStringLiteral(target);
    for (const std::string_view op : referenceForbiddenOperators())
        referenceForbidden += pythonStringLiteral(std::string(op)) + ", ";

    const std::string module = fillTemplate(kModuleTemplate, {
        {"HEADER", headerComment("#", facts)},
        {"QUALIFIED", facts.qualifiedName},
        {"PACKAGE", facts.packageName},
        {"NAMESPACE", spec.ns},
        {"NAME", spec.name},
        {"CALL_EXAMPLE", callExample},
        {"NAMESPACE_LIT", pythonStringLiteral(spec.ns)},
        {"NAME_LIT", pythonStringLiteral(spec.name)},
        {"OP_TYPE_LIT", pythonStringLiteral(spec.opType)},
        {"VERSION_LIT", pythonStringLiteral(spec.version)},
        {"QUALIFIED_LIT", pythonStringLiteral(facts.qualifiedName)},
        {"SCHEMA_LIT", pythonStringLiteral(facts.torchSchema)},
        {"DOC_LIT", pythonStringLiteral(spec.doc)},
        {"RECORD_LIT", pythonStringLiteral(facts.record)},
        {"ONNX_OPSET", std::to_string(spec.targets.onnxOpset)},
        {"KERNEL_FILE_LIT", pythonStringLiteral(kernelFile)},
        {"KERNEL_FUNCTION_LIT", pythonStringLiteral(spec.kernel.function)},
        {"REFERENCE_FUNCTION_LIT", pythonStringLiteral(spec.reference.function)},
        {"REFERENCE_SOURCE_LIT", pythonStringLiteral(referenceSource)},
        {"REFERENCE_NAMES", referenceNames},
        {"REFERENCE_FORBIDDEN", referenceForbidden},
        {"OUTPUT_NAMES", outputNames},
        {"INPUT_NAMES", inputNames},
        {"BACKWARD_SCHEMA_LIT", pythonStringLiteral(backwardSchema(spec, names))},
        {"PRELUDE", pythonRulePrelude()},
        {"DTYPE_TABLE", dtypeTable},
        {"SCALAR_TYPE_TABLE", scalarTable},
        {"ONNX_TYPE_TABLE", onnxTable},
        {"GENERATED", gen},
    });
    const std::string dir = "python/" + facts.packageName + "/";
    return {{dir + "__init__.py", module}};
}

} // namespace ptowb::codegen
