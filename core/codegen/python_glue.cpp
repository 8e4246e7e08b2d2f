#include "codegen/glue.h"
#include "codegen/glue_facts.h"
#include "codegen/template_text.h"
#include "reference/reference_check.h"
#include "reference/reference_program.h"

namespace ptowb::codegen {

namespace {

// The fixed part of every generated Python module; @NAMES@ are filled in.
constexpr const char* kModuleTemplate = R"PY(@HEADER@"""PyTorch registration, fake/meta implementation, ONNX export and backend switch of
@QUALIFIED@, generated from its op description.

    import @PACKAGE@
    outputs = @PACKAGE@.op(@CALL_EXAMPLE@)     # same as torch.ops.@NAMESPACE@.@NAME@
    with @PACKAGE@.Backend('sim'):             # run the real kernel instead of the reference
        ...

Inputs are positional, parameters keyword-only. On CPU the op runs the reference, unless the
backend is 'sim' or 'device' (Backend(...) or PTOWB_BACKEND): those run the kernel with PyPTO.
On meta and fake tensors the output shapes and dtypes come from the description's rules.
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
OUTPUT_NAMES = @OUTPUT_NAMES@
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
        self.shape = _pt_symbolic_helper._get_tensor_sizes(value)
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


def _pt_run(named, expected):
    backend = Backend.current()
    if backend == 'ref':
        reference = _pt_reference()
        # The reference binds arguments by name and may leave parameters out.
        accepted = [argument.name for argument in reference.schema.arguments]
        produced = reference(**{name: value for name, value in named.items() if name in accepted})
        produced = list(produced) if isinstance(produced, (tuple, list)) else [produced]
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


def _pt_empty_outputs(device, args):
    tensors = [torch.empty(shape, dtype=dtype, device=device) for shape, dtype in _pt_outputs(*args)]
    return tensors[0] if len(tensors) == 1 else tuple(tensors)

@GENERATED@

def _pt_defined():
    try:
        torch._C._jit_get_operation(QUALIFIED_NAME)
        return True
    except RuntimeError:
        return False


def _pt_torch_version():
    return tuple(int(part) for part in re.findall(r'\d+', torch.__version__)[:2])


_PT_LIBRARIES = []
if _pt_defined():
    pass  # the C++ op library (or another import) registered the op already
elif _pt_torch_version() >= (2, 4):
    _PT_CUSTOM_OP = torch.library.custom_op(QUALIFIED_NAME, _PT_cpu_entry, mutates_args=(), schema=SCHEMA[len(NAME):])
    _PT_CUSTOM_OP.register_fake(_PT_meta_entry)
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
        self.shape = [d.dim_value if d.HasField('dim_value') else None for d in tensor.shape.dim] if known else None
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
        inferred = onnx.shape_inference.infer_shapes(model)
        types = {v.name: v.type for v in list(inferred.graph.input) + list(inferred.graph.value_info) + list(inferred.graph.output)}
        changed = False
        for node in model.graph.node:
            if node.domain != ONNX_DOMAIN or node.op_type != OP_TYPE:
                continue
            arguments = [_PT_ProtoValue(types.get(name)) for name in node.input] + _PT_NODE_PARAMETERS(node)
            for name, (_, shape, dtype) in zip(node.output, _PT_output_rules(*arguments)):
                try:
                    value = onnx.helper.make_tensor_value_info(name, _PT_ONNX_TYPES[dtype()], shape())
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


def export_onnx(model, args, f, **kwargs):
    """torch.onnx.export with this op's domain imported and its output types from the rules."""
    import onnx
    kwargs.setdefault('opset_version', ONNX_OPSET)
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
    // torch passes keyword-only arguments by keyword and leaves out those equal to their default.
    if (!spec.params.empty()) entryParams += entryParams.empty() ? "*" : ", *";
    std::string entryCall;
    for (const auto& in : spec.inputs) entryCall += (entryCall.empty() ? "" : ", ") + in.name;
    for (std::size_t k = 0; k < spec.params.size(); ++k) {
        const ParamSpec& p = spec.params[k];
        args += (args.empty() ? "" : ", ") + names.params[k];
        namedArgs += (namedArgs.empty() ? "" : ", ") + pythonStringLiteral(p.name) + ": " + names.params[k];
        // The docstring's example names the required parameters only: no value from the
        // description ever enters a docstring, where a quote could end it.
        if (!p.defaultValue) callExample += (callExample.empty() ? "" : ", ") + p.name + "=...";
        entryParams += ", " + p.name + (p.defaultValue ? "=" + pythonLiteral(*p.defaultValue) : "");
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
    gen += "            value_type = value_type.with_sizes(shape())\n";
    gen += "        except (RuleError, TypeError, KeyError, AttributeError):\n";
    gen += "            pass\n";
    gen += "        value.setType(value_type)\n";
    gen += "    return node\n";

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
