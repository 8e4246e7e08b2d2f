#pragma once

// The kernel worker: runs kernel.py as ordinary Python with the workbench's `pypto` module inside
// the interpreter the user chose (core/interpreter starts it there), one request per line on
// stdin, one JSON answer per line on the protocol stream (the process's original stdout; Python's
// and libtorch's own output go to stderr). The workbench never runs project Python in its own
// process.
#include <cstdint>
#include <string>

namespace ptowb::worker {

// Called by the worker's Python entry (ptowb_boot.py) through the native module: announces
// `readyJson` (what runs: interpreter, torch), then answers requests until stdin closes.
int serve(const std::string& readyJson, std::int64_t memoryLimitMb);

} // namespace ptowb::worker
