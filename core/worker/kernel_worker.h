#pragma once

// The kernel worker process: an embedded CPython that runs kernel.py as ordinary Python with the
// workbench's `pypto` module, one request per line on stdin, one JSON answer per line on the
// protocol stream (the process's original stdout; Python's and libtorch's own output go to
// stderr). The workbench never runs project Python in its own process.
namespace ptowb::worker {

int serve(int argc, char** argv);

} // namespace ptowb::worker
