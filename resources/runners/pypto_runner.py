#!/usr/bin/env python3
"""Run a PyPTO kernel on one PTO Workbench case folder with the real PyPTO package.

    pypto_runner.py RUN_DIR --kernel KERNEL.py --function NAME [--run-mode sim|npu] [--soc SOC]

The case folder holds inputs/<name>.npy, params.json and run.json (whose "outputs" list the
shape and dtype of every output). Kernel parameters bind by name to the op's inputs, outputs
and parameters; outputs are written to outputs/<name>.npy. bfloat16 travels as uint16 bits.

Exit status: 0 done, 2 bad arguments or case folder, 3 PyPTO (or numpy/torch) missing,
4 the kernel failed.
"""
import argparse
import importlib.util
import inspect
import json
import os
import sys
import traceback


def fail(status, message):
    sys.stderr.write(message.rstrip() + "\n")
    sys.exit(status)


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir")
    parser.add_argument("--kernel", required=True, help="path of the kernel .py file")
    parser.add_argument("--function", required=True, help="name of the kernel function in it")
    parser.add_argument("--run-mode", choices=["sim", "npu"], default="sim")
    parser.add_argument("--soc", default="", help="SoC name, e.g. KirinX90 (passed as codegen soc_version)")
    args = parser.parse_args(argv)
    for required in ("run.json", "params.json", "inputs"):
        if not os.path.exists(os.path.join(args.run_dir, required)):
            fail(2, "%s is not a case folder: %s is missing" % (args.run_dir, required))
    if not os.path.isfile(args.kernel):
        fail(2, "kernel file %s does not exist" % args.kernel)
    return args


def import_or_explain(name, advice):
    try:
        return importlib.import_module(name)
    except Exception as error:  # ImportError, or a broken installation
        fail(3, "%s is not available in %s (%s: %s).\n%s" % (name, sys.executable, type(error).__name__, error, advice))


def load_kernel(path, function):
    spec = importlib.util.spec_from_file_location("ptowb_kernel", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not hasattr(module, function):
        fail(2, "%s defines no function %r" % (path, function))
    return getattr(module, function)


def with_options(pypto, kernel, run_mode, soc):
    """Re-applies pypto's jit with the requested run mode when the undecorated function is reachable."""
    original = getattr(kernel, "__wrapped__", None) or getattr(kernel, "func", None)
    if original is None or not callable(original):
        sys.stderr.write("note: using the kernel's own jit options; run mode %s could not be applied\n" % run_mode)
        return kernel
    mode = pypto.RunMode.SIM if run_mode == "sim" else pypto.RunMode.NPU
    options = {"runtime_options": {"run_mode": mode}}
    if soc:
        options["codegen_options"] = {"soc_version": soc}
    return pypto.frontend.jit(**options)(original)


def main(argv):
    args = parse_args(argv)
    np = import_or_explain("numpy", "Install numpy for this Python (Debian: apt-get install python3-numpy).")
    pypto = import_or_explain(
        "pypto",
        "Install PyPTO in this Python (see the hicann/pypto repository), or set the runner's command to a "
        "Python that has it. For the simulator (--run-mode sim) PyPTO needs no device; for npu it needs CANN "
        "and a device (ASCEND_HOME_PATH, TILE_FWK_DEVICE_ID).")
    torch = import_or_explain("torch", "Install torch for this Python.")

    with open(os.path.join(args.run_dir, "run.json")) as f:
        run = json.load(f)
    with open(os.path.join(args.run_dir, "params.json")) as f:
        params = json.load(f)
    dtypes = {"bool": torch.bool, "uint8": torch.uint8, "int8": torch.int8, "int16": torch.int16,
              "int32": torch.int32, "int64": torch.int64, "float16": torch.float16,
              "bfloat16": torch.bfloat16, "float32": torch.float32, "float64": torch.float64}

    values = dict(params)
    input_dir = os.path.join(args.run_dir, "inputs")
    for file_name in sorted(os.listdir(input_dir)):
        if file_name.endswith(".npy"):
            array = np.load(os.path.join(input_dir, file_name), allow_pickle=False)
            tensor = torch.from_numpy(array.copy())
            values[file_name[:-4]] = tensor
    outputs = {}
    for out in run["outputs"]:
        outputs[out["name"]] = torch.zeros(out["shape"], dtype=dtypes[out["dtype"]])
    values.update(outputs)
    # Inputs stored as <u2 are bfloat16 bits.
    for out in run.get("inputs", []):
        if out.get("dtype") == "bfloat16" and out["name"] in values:
            values[out["name"]] = values[out["name"]].view(torch.bfloat16)

    kernel = with_options(pypto, load_kernel(args.kernel, args.function), args.run_mode, args.soc)
    signature = inspect.signature(getattr(kernel, "__wrapped__", kernel))
    missing = [name for name in signature.parameters if name not in values]
    if missing:
        fail(2, "kernel parameters %s are not inputs, outputs or parameters of the op" % ", ".join(missing))
    try:
        kernel(**{name: values[name] for name in signature.parameters})
    except Exception:
        fail(4, "the kernel failed:\n" + traceback.format_exc())

    for name, tensor in outputs.items():
        tensor = tensor.cpu().contiguous()
        array = tensor.view(torch.uint16).numpy() if tensor.dtype == torch.bfloat16 else tensor.numpy()
        np.save(os.path.join(args.run_dir, "outputs", name + ".npy"), array)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
