// The ONNX part of every generated Python module: the text appended to python_glue.cpp's
// template (the TorchScript exporter's symbolic function registration, output types stamped
// from the rules, the dynamo exporter's onnxscript translation, export_onnx, and ONNX Runtime
// sessions with the op), and the functions generated for it per op.
#include "codegen/glue_facts.h"

namespace ptowb::codegen {

const char* pythonOnnxModuleText()
{
    return R"PY(torch.onnx.register_custom_op_symbolic(QUALIFIED_NAME, _PT_symbolic, 9)


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


def _pt_refuse_onnx_of_mutation():
    """ONNX has no tensor written in place: a node of this op could not hand the new value of a
    mutated input to the nodes after it, so the exported graph would compute with the old one."""
    if MUTATED_INPUTS:
        raise RuntimeError('%s writes its input %s in place, which ONNX cannot express (the exported graph would read '
                           'the old value); export a model that does not call it' % (QUALIFIED_NAME, ', '.join(MUTATED_INPUTS)))


def onnx_translation():
    """This op's entry of torch.onnx.export(..., dynamo=True, custom_translation_table=...): an
    onnxscript function that records one node of the op's domain, with typed attributes and the
    record. Output types and dims (symbolic ones by name) come from the op's fake tensors."""
    _pt_refuse_onnx_of_mutation()
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
    _pt_refuse_onnx_of_mutation()
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
}

// The symbolic function of the TorchScript exporter, and the parameter tables the exporters and
// ONNX Runtime sessions read.
std::string pythonOnnxFunctions(const OpSpec& spec, const PythonNames& names,
                                std::size_t keywordOnly)
{
    std::string args, symbolicDescriptors;
    for (const auto& n : names.inputs) {
        args += (args.empty() ? "" : ", ") + n;
        symbolicDescriptors += symbolicDescriptors.empty() ? "'v'" : ", 'v'";
    }
    for (std::size_t k = 0; k < spec.params.size(); ++k) {
        args += (args.empty() ? "" : ", ") + names.params[k];
        symbolicDescriptors += std::string(symbolicDescriptors.empty() ? "" : ", ") + "'" +
                               std::string(paramTypeInfo(spec.params[k].type).torchOnnxArg) + "'";
    }
    std::string gen;
    gen += "\n\n@_pt_symbolic_helper.parse_args(" + symbolicDescriptors + ")\n";
    gen += "def _PT_symbolic(g" + std::string(args.empty() ? "" : ", ") + args + "):\n";
    gen += "    _pt_refuse_onnx_of_mutation()\n";
    gen += "    node = g.op(ONNX_DOMAIN + '::' + OP_TYPE";
    for (const auto& n : names.inputs)
        gen += ", " + n;
    gen += ", outputs=" + std::to_string(spec.outputs.size());
    for (std::size_t k = 0; k < spec.params.size(); ++k) {
        const ParamSpec& p = spec.params[k];
        const std::string suffix(paramTypeInfo(p.type).torchOnnxSuffix);
        std::string value = names.params[k];
        if (p.type == ParamType::Bool) value = "int(" + value + ")";
        if (p.type == ParamType::IntList || p.type == ParamType::FloatList)
            value = "list(" + value + ")";
        gen += ",\n                **{" + pythonStringLiteral(p.name + "_" + suffix) + ": " +
               value + "}";
    }
    gen += ",\n                ptowb_record_s=RECORD)\n";
    gen += "    outputs = list(node) if isinstance(node, (tuple, list)) else [node]\n";
    std::string graphArgs;
    for (const auto& n : names.inputs)
        graphArgs += (graphArgs.empty() ? "" : ", ") + std::string("_PT_GraphValue(") + n + ")";
    for (const auto& n : names.params)
        graphArgs += (graphArgs.empty() ? "" : ", ") + n;
    gen += "    rules = _PT_output_rules(" + graphArgs + ")\n";
    gen += "    for value, (name, shape, dtype) in zip(outputs, rules):\n";
    gen += "        value_type = value.type()\n";
    gen += "        try:  # a rule over an unknown (dynamic) dim leaves that part of the type "
           "unknown\n";
    gen += "            value_type = value_type.with_dtype(dtype())\n";
    gen += "        except (RuleError, TypeError, KeyError, AttributeError):\n";
    gen += "            pass\n";
    gen += "        try:\n";
    gen += "            value_type = value_type.with_sizes([None if isinstance(d, _PT_Dim) else d "
           "for d in shape()])\n";
    gen += "        except (RuleError, TypeError, KeyError, AttributeError):\n";
    gen += "            pass\n";
    gen += "        value.setType(value_type)\n";
    gen += "    return node\n";

    gen += "\n\n# (name, ONNX attribute type, default, keyword-only, Python type) of every "
           "parameter.\n";
    gen += "_PT_ONNX_PARAMETERS = (\n";
    for (std::size_t k = 0; k < spec.params.size(); ++k) {
        const ParamSpec& p = spec.params[k];
        const ParamTypeInfo& info = paramTypeInfo(p.type);
        const std::string element(info.name.substr(0, info.name.find('[')));
        const std::string annotation =
            info.name.ends_with("[]") ? "list[" + element + "]" : element;
        gen += "    (" + pythonStringLiteral(p.name) + ", " +
               pythonStringLiteral(std::string(info.onnxAttrType)) + ", " +
               (p.defaultValue ? pythonLiteral(*p.defaultValue) : "_PT_REQUIRED") + ", " +
               (k >= keywordOnly ? "True" : "False") + ", " + annotation + "),\n";
    }
    gen += ")\n";
    gen += "\n\ndef _PT_NODE_PARAMETERS(node):\n    return [\n";
    for (const auto& p : spec.params)
        gen += "        _pt_node_attribute(node, " + pythonStringLiteral(p.name) + ", " +
               (p.defaultValue ? pythonLiteral(*p.defaultValue) : "_PT_REQUIRED") + ", " +
               pythonStringLiteral(std::string(paramTypeInfo(p.type).name)) + "),\n";
    gen += "    ]\n";
    return gen;
}

} // namespace ptowb::codegen
