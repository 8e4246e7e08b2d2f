#pragma once

#include "diag/diagnostic.h"
#include "sim/cost_model.h"
#include "tensor/tensor.h"

#include <string>
#include <vector>

namespace ptowb {

struct SimRunOptions
{
    bool capture = false;      // keep the value of every tensor assignment
    std::string platformFile;  // resources/platforms/<name>.json; empty: no cost estimate
};

struct SimCapture
{
    int line = 0;
    std::string name;
    Tensor value;
};

// What simulating one case gives: the outputs (one per op output) or diagnostics at kernel
// lines, the cost estimate, and the captured intermediates.
struct SimOutcome
{
    std::vector<Tensor> outputs;
    Diagnostics diagnostics;
    sim::CostReport cost;
    std::vector<SimCapture> captures;
};

} // namespace ptowb
