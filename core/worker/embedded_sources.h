#pragma once

#include <span>

namespace ptowb::worker {

// The Python sources of the worker (core/worker/python), compiled into its extension so an
// install cannot pair a worker with another version's module.
struct EmbeddedSource
{
    const char* module; // "pypto._ops"
    const char* path;   // "pypto/_ops.py", shown in tracebacks as <ptowb>/pypto/_ops.py
    bool package;
    const char* source;
};

std::span<const EmbeddedSource> embeddedSources();

} // namespace ptowb::worker
