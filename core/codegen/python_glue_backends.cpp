// The part of every generated Python module that runs the op on CPU tensors: the kernel under
// PyPTO, in the workbench's simulator through the kernel worker, or the reference; with the
// kernel arguments op.json builds and the mutated inputs written back. Appended to
// python_glue.cpp's head; its @NAMES@ are filled in with the rest of the module.
#include "codegen/glue_facts.h"

namespace ptowb::codegen {

const char* pythonBackendsModuleText()
{
    return R"PY(def _pt_kernel(backend):
    """The kernel function, jitted by PyPTO for the backend's run mode."""
    if backend in _PT_KERNELS:
        return _PT_KERNELS[backend]
    try:
        import pypto
    except Exception as error:
        raise RuntimeError("%s: backend '%s' runs the kernel with PyPTO, which this Python cannot import (%s: %s); "
                           "install PyPTO or use Backend('ref')" % (QUALIFIED_NAME, backend, type(error).__name__, error)) from None
    path = _pt_kernel_path()
    spec = importlib.util.spec_from_file_location('_ptowb_kernel_' + NAME, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    kernel = getattr(module, KERNEL_FUNCTION)
    original = getattr(kernel, '__wrapped__', None) or getattr(kernel, 'func', None)
    if callable(original):
        mode = pypto.RunMode.SIM if backend == 'sim' else pypto.RunMode.NPU
        kernel = pypto.frontend.jit(runtime_options={'run_mode': mode})(original)
    _PT_KERNELS[backend] = kernel
    _PT_KERNEL_MODULES[backend] = module
    return kernel


def _pt_argument_for_worker(value):
    """A kernel argument as ptowb's kernel worker takes it: a dtype as {'dtype': name}."""
    if isinstance(value, torch.dtype):
        return {'dtype': _pt_dtype_name(value)}
    if isinstance(value, dict) and 'class' in value:
        return {'class': value['class'], 'fields': {k: _pt_argument_for_worker(v) for k, v in value['fields'].items()}}
    return value


def _pt_argument_for_pypto(value, module):
    """A kernel argument as the kernel takes it under PyPTO: a pypto dtype, or an instance of
    the kernel file's class named by op.json, built from its fields."""
    if isinstance(value, torch.dtype):
        import pypto
        return getattr(pypto, _PT_PYPTO_DTYPES[_pt_dtype_name(value)])
    if isinstance(value, dict) and 'class' in value:
        target = _pt_argument_class(module, value['class'])
        return target(**{k: _pt_argument_for_pypto(v, module) for k, v in value['fields'].items()})
    return value


def _pt_argument_class(module, spelled):
    """op.json's "class": defined in the kernel file, or in a module of the kernel's folder that
    the kernel file imported. Looked up in namespaces only, never through builtins or packages."""
    import sys
    import types
    folder = os.path.dirname(os.path.abspath(module.__file__)) + os.sep

    def local(value):
        path = getattr(value, '__file__', None) if isinstance(value, types.ModuleType) else None
        return value is module or bool(path) and os.path.abspath(path).startswith(folder)
    target = module
    for part in spelled.split('.'):
        namespace = vars(target) if isinstance(target, (types.ModuleType, type)) else {}
        target = namespace.get(part)
        if target is None or not (local(target) or isinstance(target, type)):
            break
    else:
        name = getattr(target, '__module__', None)
        if isinstance(target, type) and local(module if name == module.__name__ else sys.modules.get(name)):
            return target
    raise RuntimeError("%s: op.json's kernel argument class '%s' is not a class defined in the kernel file or in a "
                       "module of its folder that it imports" % (QUALIFIED_NAME, spelled))


def _pt_reference_outputs(named):
    reference = _pt_reference()
    # The reference binds arguments by name and may leave parameters out.
    accepted = [argument.name for argument in reference.schema.arguments]
    produced = reference(**{name: value for name, value in named.items() if name in accepted})
    return list(produced) if isinstance(produced, (tuple, list)) else [produced]


def _pt_kernel_path():
    path = os.environ.get('PTOWB_KERNEL') or os.path.join(_PT_PACKAGE_ROOT, 'kernel', KERNEL_FILE)
    if not os.path.isfile(path):
        raise RuntimeError('%s: the kernel file %s does not exist (set PTOWB_KERNEL to its path)' % (QUALIFIED_NAME, path))
    return path


def _pt_kernel_worker():
    """ptowb's kernel worker, which runs the kernel in the workbench's simulator: PTOWB_KERNEL_WORKER,
    ptowb-kernel-worker on PATH, or the one beside an installed ptowb-cli; None without ptowb."""
    import shutil
    if os.environ.get('PTOWB_KERNEL_WORKER'):
        return os.environ['PTOWB_KERNEL_WORKER']
    found = shutil.which('ptowb-kernel-worker')
    cli = shutil.which('ptowb-cli')
    if not found and cli:
        beside = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(cli))), 'lib', 'ptowb', 'ptowb-kernel-worker')
        found = beside if os.access(beside, os.X_OK) else None
    return found


def _pt_run_in_simulator(worker, named, expected, arguments):
    """The kernel file in the workbench's simulator: one kernel worker process per call, given a
    case folder of .npy files (inputs/, outputs/) as ptowb's run folders hold them. Out of this
    process, so any torch can call it and a kernel that never returns is stopped
    (PTOWB_TIME_LIMIT seconds, 60 by default)."""
    import json
    import subprocess
    import tempfile
    import numpy

    def save(path, tensor):
        tensor = tensor.detach().contiguous().cpu()
        array = tensor.view(torch.int16).numpy().view(numpy.uint16) if tensor.dtype == torch.bfloat16 else tensor.numpy()
        numpy.save(path, array)

    def load(path, dtype):
        array = numpy.load(path)
        return torch.from_numpy(array.view(numpy.int16)).view(torch.bfloat16) if dtype == torch.bfloat16 else torch.from_numpy(array)
    path = _pt_kernel_path()
    with open(path, encoding='utf-8') as text:
        source = text.read()
    limit = float(os.environ.get('PTOWB_TIME_LIMIT') or 60)
    with tempfile.TemporaryDirectory(prefix='ptowb-sim-') as case:
        os.makedirs(os.path.join(case, 'inputs'))
        for name in INPUT_NAMES:
            save(os.path.join(case, 'inputs', name + '.npy'), named[name])
        request = {'op': 'run', 'case_dir': case, 'kernel_file': path, 'source': source, 'function': KERNEL_FUNCTION,
                   'inputs': list(INPUT_NAMES),
                   'outputs': [dict({'name': name, 'shape': list(shape), 'dtype': _pt_dtype_name(dtype)},
                                    **({} if init is None else {'init': init}))
                               for name, (shape, dtype), init in zip(OUTPUT_NAMES, expected, OUTPUT_INITS)],
                   'params': {name: value for name, value in named.items() if name not in INPUT_NAMES},
                   'arguments': {name: _pt_argument_for_worker(value) for name, value in arguments.items()},
                   'mutated': list(MUTATED_INPUTS)}
        try:
            done = subprocess.run([worker], input=json.dumps(request) + '\n', capture_output=True, text=True, timeout=limit)
        except subprocess.TimeoutExpired:
            raise RuntimeError('%s: the kernel did not finish within %g s (PTOWB_TIME_LIMIT)' % (QUALIFIED_NAME, limit)) from None
        # The worker greets first (its interpreter; progress while it is built for a new one).
        answers = [json.loads(line) for line in done.stdout.splitlines() if line.startswith('{')]
        answers = [a for a in answers if a.get('status') not in ('progress', 'ready')]
        answer = answers[0] if answers else {'message': 'the kernel worker stopped (%s): %s' % (done.returncode, done.stderr[-2000:])}
        if answer.get('status') != 'ok':
            where = '%s:%d:%d: ' % (path, answer.get('line', 1), answer.get('col', 1)) if 'line' in answer else ''
            trace = answer.get('traceback', '')
            raise RuntimeError('%s: the kernel failed in the simulator:\n%s%s%s' % (QUALIFIED_NAME, where, answer.get('message', ''),
                                                                                   '\n' + trace if trace else ''))
        for name in MUTATED_INPUTS:  # the kernel wrote these in place: so does the op
            named[name].copy_(load(os.path.join(case, 'outputs', name + '.npy'), named[name].dtype))
        return [load(os.path.join(case, 'outputs', name + '.npy'), dtype) for name, (_, dtype) in zip(OUTPUT_NAMES, expected)]


def _pt_initial_output(shape, dtype, init):
    if init is None:
        init = float('nan') if dtype.is_floating_point else 0
    return torch.full(shape, init, dtype=dtype)


def _pt_run(named, expected, kernel_arguments):
    backend = Backend.current()
    worker = _pt_kernel_worker() if backend == 'sim' else None
    if backend == 'ref':
        produced = _pt_reference_outputs(named)
    elif worker:
        produced = _pt_run_in_simulator(worker, named, expected, kernel_arguments)
    else:
        kernel = _pt_kernel(backend)
        produced = [_pt_initial_output(shape, dtype, init) for (shape, dtype), init in zip(expected, OUTPUT_INITS)]
        arguments = dict(named)
        arguments.update(zip(OUTPUT_NAMES, produced))
        module = _PT_KERNEL_MODULES[backend]
        arguments.update({name: _pt_argument_for_pypto(value, module) for name, value in kernel_arguments.items()})
        signature = inspect.signature(getattr(kernel, '__wrapped__', kernel))
        kernel(**{name: arguments[name] for name in signature.parameters if name in arguments})
    if len(produced) != len(expected):
        raise RuntimeError('%s: backend %s returned %d outputs; the op has %d' % (QUALIFIED_NAME, backend, len(produced), len(expected)))
    for name, tensor, (shape, dtype) in zip(OUTPUT_NAMES, produced, expected):
        if list(tensor.shape) != list(shape) or tensor.dtype != dtype:
            raise RuntimeError("%s: backend %s gave output '%s' shape %s %s; the rules give %s %s"
                               % (QUALIFIED_NAME, backend, name, list(tensor.shape), _pt_dtype_name(tensor.dtype), list(shape), _pt_dtype_name(dtype)))
    return produced[0] if len(produced) == 1 else tuple(produced)


)PY";
}

} // namespace ptowb::codegen
