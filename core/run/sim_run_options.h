#pragma once

#include <string>

namespace ptowb {

struct SimRunOptions
{
    bool capture = false;       // keep the value of every tensor assignment
    std::string platformFile;   // resources/platforms/<name>.json; empty: no cost estimate
    double timeoutSeconds = 60; // per case; the kernel is stopped at its current line past it
};

} // namespace ptowb
