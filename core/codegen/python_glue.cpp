#include "codegen/glue.h"
#include "codegen/glue_facts.h"
#include "reference/reference_check.h"
#include "reference/reference_program.h"
#include "text/template_text.h"

#include <algorithm>

namespace ptowb::codegen {

// python_glue_backends.cpp: the module's part that runs the op on CPU tensors.
const char* pythonBackendsModuleText();
// python_glue_onnx.cpp: the module's ONNX part, and the functions generated for it.
const char* pythonOnnxModuleText();
std::string pythonOnnxFunctions(const OpSpec& spec, const PythonNames& names,
                                std::size_t keywordOnly);

namespace {

// The fixed part of every generated Python module, up to its backends; @NAMES@ are filled in.
constexpr const char* kModuleHead =
    R"PY(@HEADER@"""PyTorch registration, fake/meta implementation, ONNX export and backend switch of
@QUALIFIED@, generated from its op description.

    import @PACKAGE@
    outputs = @PACKAGE@.op(@CALL_EXAMPLE@)     # same as torch.ops.@NAMESPACE@.@NAME@
    with @PACKAGE@.Backend('sim'):             # run the real kernel instead of the reference
        ...

Inputs, then parameters in their declared order, positionally or by keyword. On CPU the op
runs the reference, unless the backend is 'sim' or 'device' (Backend(...) or PTOWB_BACKEND):
those run the kernel, in the workbench's simulator or with PyPTO. On meta and fake tensors
the output shapes and dtypes come from the description's rules. Gradients are those of the
reference.
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
# Inputs the kernel writes in place (torch's mutates_args); their new value is a result too.
MUTATED_INPUTS = @MUTATED_INPUTS@
# What each output holds before the kernel runs (op.json's init); None: NaN, zero for integers.
OUTPUT_INITS = @OUTPUT_INITS@
BACKWARD_SCHEMA = @BACKWARD_SCHEMA_LIT@
BACKENDS = ('ref', 'sim', 'device')
@PRELUDE@
_PT_DTYPES = {@DTYPE_TABLE@}
_PT_PYPTO_DTYPES = {@PYPTO_DTYPE_TABLE@}
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

    'ref' runs the reference; 'sim' the kernel in the workbench's simulator when ptowb's kernel
    worker is found (see _pt_kernel_worker), else in PyPTO's; 'device' the kernel through
    PyPTO on the device. Without a Backend block, the PTOWB_BACKEND environment variable
    decides, and 'ref' when it is not set."""

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
_PT_KERNEL_MODULES = {}
# reference.py with its import lines blanked (line numbers kept), and what those lines bound.
# It is TorchScript, compiled by torch.jit like the workbench and the C++ op compile it; it is
# never executed as Python.
_PT_REFERENCE_SOURCE = @REFERENCE_SOURCE_LIT@
_PT_REFERENCE_NAMES = {@REFERENCE_NAMES@}
# The operators a reference may call: the workbench's allow-list, as it checked the reference.
_PT_REFERENCE_ALLOWED = frozenset((
    @REFERENCE_ALLOWED@))


def _pt_check_reference_graph(block):
    for node in block.nodes():
        kind = node.kind()
        if kind not in _PT_REFERENCE_ALLOWED:
            raise RuntimeError('%s: the reference calls %s, which is not among the operators a reference may use'
                               % (QUALIFIED_NAME, kind))
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


)PY";

// After the backends (python_glue_backends.cpp): autograd, registration and the op.
constexpr const char* kModuleTail = R"PY(def _pt_differentiable(tensor):
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
    _PT_CUSTOM_OP = torch.library.custom_op(QUALIFIED_NAME, _PT_cpu_entry, mutates_args=MUTATED_INPUTS, device_types='cpu',
                                            schema=SCHEMA[len(NAME):])
    _PT_CUSTOM_OP.register_fake(_PT_meta_entry)
    if not MUTATED_INPUTS:  # an op that writes an input in place has no gradient
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


)PY";

// torch >= 2.4 autograd: setup_context saves the inputs and parameters, backward calls the
// op's backward op (see _pt_gradients) and returns one gradient per positional argument.
std::string backwardFunctions(const OpSpec& spec, const PythonNames& names, std::size_t keywordOnly)
{
    const std::size_t inputCount = spec.inputs.size();
    std::string params, namedParams, parameterValues;
    for (std::size_t k = 0; k < spec.params.size(); ++k) {
        params += ", " + names.params[k];
        namedParams += (namedParams.empty() ? "" : ", ") +
                       pythonStringLiteral(spec.params[k].name) + ": " + names.params[k];
        parameterValues += k < keywordOnly ? "inputs[" + std::to_string(inputCount + k) + "], "
                                           : "keyword_only_inputs[" +
                                                 pythonStringLiteral(spec.params[k].name) + "], ";
    }
    const bool hasKeywordOnly = keywordOnly < spec.params.size();
    std::string gen;
    gen += "\n\ndef _PT_setup_context(ctx, inputs, " +
           std::string(hasKeywordOnly ? "keyword_only_inputs, " : "") + "output):\n";
    gen += "    ctx.save_for_backward(*inputs[:" + std::to_string(inputCount) + "])\n";
    gen += "    ctx.ptowb_parameters = [" + parameterValues + "]\n";
    gen += "\n\ndef _PT_backward(ctx, *grads):\n";
    gen += "    inputs = ctx.saved_tensors\n";
    gen += "    computed = _PT_BACKWARD_OP(list(grads), list(inputs), *ctx.ptowb_parameters)\n";
    gen += "    return tuple(g if _pt_differentiable(t) else None for g, t in zip(computed, "
           "inputs)) + (None,) * " +
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
        schema += ", " + std::string(paramTypeInfo(spec.params[k].type).torchSchema) + " " +
                  names.params[k];
    return schema + ") -> Tensor[]";
}

// op.json's kernel arguments for one call: {name: value} or {name: {'class': ..., 'fields':
// {...}}}.
std::string kernelArgumentFunction(const OpSpec& spec, const PythonNames& names,
                                   const std::string& args)
{
    std::string gen = "\n\ndef _PT_kernel_arguments(" + args + "):\n";
    gen += "    \"\"\"The kernel parameters op.json binds to values (\"kernel\": "
           "{\"arguments\"}).\"\"\"\n";
    gen += "    return {\n";
    for (const KernelArgumentSpec& a : spec.kernelArguments) {
        auto value = [&](const KernelArgumentSpec::Field& f) {
            const std::string what = "kernel argument '" + a.name + "'" +
                                     (f.name.empty() ? "" : " field '" + f.name + "'");
            return "_pt_rule(" + pythonStringLiteral(what) +
                   ", lambda: " + emitPython(f.rule->root(), names) + ")";
        };
        gen += "        " + pythonStringLiteral(a.name) + ": ";
        if (a.className.empty()) {
            gen += value(a.fields.at(0)) + ",\n";
            continue;
        }
        gen += "{'class': " + pythonStringLiteral(a.className) + ", 'fields': {";
        for (const auto& f : a.fields)
            gen += pythonStringLiteral(f.name) + ": " + value(f) + ", ";
        gen += "}},\n";
    }
    return gen + "    }\n";
}

} // namespace

std::vector<GeneratedFile> generatePythonGlue(const GlueSource& source)
{
    const OpSpec& spec = source.spec;
    const GlueFacts facts = glueFacts(source);
    const PythonNames names = pythonNames(spec);

    std::string args, namedArgs, callExample, entryParams;
    for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
        args += (args.empty() ? "" : ", ") + names.inputs[k];
        namedArgs += (namedArgs.empty() ? "" : ", ") + pythonStringLiteral(spec.inputs[k].name) +
                     ": " + names.inputs[k];
        callExample += (callExample.empty() ? "" : ", ") + spec.inputs[k].name;
        entryParams += (entryParams.empty() ? "" : ", ") + spec.inputs[k].name;
    }
    // The entry points take parameters as the schema declares them (see firstKeywordOnlyParam).
    const std::size_t keywordOnly = firstKeywordOnlyParam(spec);
    std::string entryCall;
    for (const auto& in : spec.inputs)
        entryCall += (entryCall.empty() ? "" : ", ") + in.name;
    for (std::size_t k = 0; k < spec.params.size(); ++k) {
        const ParamSpec& p = spec.params[k];
        args += (args.empty() ? "" : ", ") + names.params[k];
        namedArgs +=
            (namedArgs.empty() ? "" : ", ") + pythonStringLiteral(p.name) + ": " + names.params[k];
        // The docstring's example names the required parameters only: no value from the
        // description ever enters a docstring, where a quote could end it.
        if (!p.defaultValue) callExample += (callExample.empty() ? "" : ", ") + p.name + "=...";
        if (k == keywordOnly) entryParams += entryParams.empty() ? "*" : ", *";
        entryParams += (entryParams.empty() ? "" : ", ") + p.name +
                       (p.defaultValue ? "=" + pythonLiteral(*p.defaultValue) : "");
        entryCall += (entryCall.empty() ? "" : ", ") + p.name;
    }

    std::string gen;
    gen += "\ndef _PT_check(" + args + "):\n";
    gen += "    \"\"\"Input dtypes and ranks, then the description's constraints.\"\"\"\n";
    for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
        const InputSpec& in = spec.inputs[k];
        std::string dtypes;
        for (DType d : in.dtypes)
            dtypes += "torch." + std::string(dtypeInfo(d).torchName) + ", ";
        gen += "    _pt_check_input(" + pythonStringLiteral(in.name) + ", " + names.inputs[k] +
               ", (" + dtypes + "), " + (in.rank ? std::to_string(*in.rank) : "None") + ")\n";
    }
    for (const auto& c : spec.constraints) {
        gen += "    if not _pt_rule(" + pythonStringLiteral("constraint " + c.check) +
               ", lambda: " + emitPython(c.rule->root(), names) + "):\n";
        gen += "        raise ValueError(QUALIFIED_NAME + ': ' + " +
               pythonStringLiteral(c.message.empty() ? "constraint " + c.check + " does not hold"
                                                     : c.message) +
               ")\n";
    }
    gen += "\n\ndef _PT_output_rules(" + args + "):\n";
    gen += "    return [\n";
    for (const auto& out : spec.outputs)
        gen += "        (" + pythonStringLiteral(out.name) +
               ",\n         lambda: " + emitPython(out.shape->root(), names) +
               ",\n         lambda: " + emitPython(out.dtype->root(), names) + "),\n";
    gen += "    ]\n";

    gen += kernelArgumentFunction(spec, names, args);

    const std::string firstInput = spec.inputs.empty() ? "" : names.inputs[0];
    gen += "\n\ndef _PT_cpu(" + args + "):\n";
    gen += "    _PT_check(" + args + ")\n";
    gen += "    return _pt_run({" + namedArgs + "}, _pt_outputs(" + args +
           "), _PT_kernel_arguments(" + args + "))\n";
    gen += "\n\ndef _PT_meta(" + args + "):\n";
    gen += "    _PT_check(" + args + ")\n";
    gen += "    return _pt_empty_outputs(" +
           (firstInput.empty() ? std::string("'meta'") : firstInput + ".device") + ", (" + args +
           (args.empty() ? "" : ",") + "))\n";
    gen += "\n\n# Entry points with the schema's argument names; torch calls them positionally or "
           "by keyword.\n";
    gen += "def _PT_cpu_entry(" + entryParams + "):\n    return _PT_cpu(" + entryCall + ")\n";
    gen += "\n\ndef _PT_meta_entry(" + entryParams + "):\n    return _PT_meta(" + entryCall + ")\n";
    gen += backwardFunctions(spec, names, keywordOnly);

    gen += pythonOnnxFunctions(spec, names, keywordOnly);

    std::string dtypeTable, scalarTable, onnxTable, pyptoTable;
    for (const auto& info : allDTypes()) {
        dtypeTable += (dtypeTable.empty() ? "" : ", ") +
                      pythonStringLiteral(std::string(info.name)) + ": torch." +
                      std::string(info.torchName);
        scalarTable += (scalarTable.empty() ? "" : ", ") +
                       pythonStringLiteral(std::string(info.torchCpp)) + ": torch." +
                       std::string(info.torchName);
        pyptoTable += (pyptoTable.empty() ? "" : ", ") +
                      pythonStringLiteral(std::string(info.name)) + ": " +
                      pythonStringLiteral(std::string(info.pypto));
        onnxTable += (onnxTable.empty() ? "" : ", ") + std::to_string(info.onnxElementType) +
                     ": torch." + std::string(info.torchName);
    }
    std::string mutatedNames = "(";
    for (std::size_t k : spec.mutatedInputs())
        mutatedNames += pythonStringLiteral(spec.inputs[k].name) + ", ";
    mutatedNames += ")";
    std::string outputNames = "(", outputInits = "(";
    for (const auto& out : spec.outputs) {
        outputNames += pythonStringLiteral(out.name) + ", ";
        outputInits += (out.init ? pythonLiteral(rules::Value::ofFloat(*out.init)) : "None") + ", ";
    }
    outputNames += ")";
    outputInits += ")";
    std::string inputNames = "(";
    for (const auto& in : spec.inputs)
        inputNames += pythonStringLiteral(in.name) + ", ";
    inputNames += ")";
    const std::string kernelFile = spec.kernel.file.substr(spec.kernel.file.find_last_of('/') + 1);
    std::vector<std::pair<std::string, std::string>> referenceAliases;
    const std::string referenceSource = stripImports(source.reference, referenceAliases);
    std::string referenceNames;
    for (const auto& [alias, target] : referenceAliases)
        referenceNames += (referenceNames.empty() ? "" : ", ") + pythonStringLiteral(alias) + ": " +
                          pythonStringLiteral(target);
    std::vector<std::string> allowed;
    for (const std::string& op : referenceAllowedOperators())
        allowed.push_back(pythonStringLiteral(op));

    const std::string module =
        fillTemplate(std::string(kModuleHead) + pythonBackendsModuleText() + kModuleTail +
                         pythonOnnxModuleText(),
                     {
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
                         {"REFERENCE_ALLOWED", wrappedList(allowed, "    ")},
                         {"OUTPUT_NAMES", outputNames},
                         {"INPUT_NAMES", inputNames},
                         {"BACKWARD_SCHEMA_LIT", pythonStringLiteral(backwardSchema(spec, names))},
                         {"PRELUDE", pythonRulePrelude()},
                         {"DTYPE_TABLE", dtypeTable},
                         {"OUTPUT_INITS", outputInits},
                         {"MUTATED_INPUTS", mutatedNames},
                         {"PYPTO_DTYPE_TABLE", pyptoTable},
                         {"SCALAR_TYPE_TABLE", scalarTable},
                         {"ONNX_TYPE_TABLE", onnxTable},
                         {"GENERATED", gen},
                     });
    const std::string dir = "python/" + facts.packageName + "/";
    return {{dir + "__init__.py", module}};
}

} // namespace ptowb::codegen
