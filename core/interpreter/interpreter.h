#pragma once

// Which Python runs kernel.py. The interpreter is chosen, never found: the user's choice (the
// CLI's --python, PTOWB_PYTHON, the app's Settings ▸ Python interpreter), else the system Python
// the workbench was built with, by absolute path. Nothing of the caller's environment (PATH,
// VIRTUAL_ENV, PYTHONHOME, PYTHONPATH, the current folder) changes which interpreter or standard
// library runs. Standard C++ only.
#include <string>
#include <variant>
#include <vector>

namespace ptowb::interpreter {

// What the probe (python/ptowb_probe.py, run in the interpreter) reports.
struct Interpreter
{
    std::string path;   // as chosen: a venv's bin/python stays the venv's, never resolved
    std::string python; // "3.11.2"
    int major = 0, minor = 0;
    std::string implementation; // "CPython"
    std::string extSuffix;      // ".cpython-311-x86_64-linux-gnu.so"
    std::string pythonInclude;
    std::string torch;      // the torch version it imports
    std::string torchError; // why it cannot import torch ("" when it can)
    bool cxx11Abi = true;
    std::string torchDir;    // the torch package's folder
    std::string torchLibDir; // the folder of the libc10 that torch loads
    std::vector<std::string> torchInclude;
    std::string pypto;    // the installed PyPTO's version, "" when none is installed
    std::string torchNpu; // the installed torch_npu's version, "" when none is
};

// The system Python the workbench was built with.
std::string defaultPython();

// `chosen` when given, else $PTOWB_PYTHON, else defaultPython(); made absolute, not resolved.
std::string choosePython(const std::string& chosen);

// Runs the probe script in `python` (at most `timeoutSeconds`). The error names the interpreter.
std::variant<Interpreter, std::string>
probe(const std::string& python, const std::string& probeScript, double timeoutSeconds = 60);

// probe(), remembered in the user's cache while the interpreter and its torch stay the same
// files (a pip install or upgrade of torch probes again): a worker start pays no second torch
// import.
std::variant<Interpreter, std::string> probeRemembered(const std::string& python,
                                                       const std::string& probeScript,
                                                       const std::string& cacheDir);

// Why kernels cannot run in this interpreter ("" when they can): not CPython 3.9 or newer, no
// importable torch. The message names the interpreter and the fix.
std::string unsuitability(const Interpreter& interpreter);

// "Python 3.11.2 at /usr/bin/python3, torch 1.13.0a0, pypto 0.2.0"
std::string describe(const Interpreter& interpreter);

// The interpreter that would run kernels given `chosen` (choosePython), probed (remembered in
// the cache), or why kernels cannot run in it: one message naming it and the fix.
std::variant<Interpreter, std::string> kernelInterpreter(const std::string& chosen);

// The user's cache: ${PTOWB_CACHE}, else ${XDG_CACHE_HOME}/ptowb, else ~/.cache/ptowb.
std::string cacheRoot();

// Where the worker's files are: the folder of the kernel worker launcher (lib/ptowb).
std::string workerLibDir();

} // namespace ptowb::interpreter
