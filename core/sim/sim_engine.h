#pragma once

#include "sim/sim_outcome.h"
#include "spec/op_spec.h"

#include <span>

namespace ptowb::sim {

// Parses and checks the kernel, binds one case (inputs, parameters, outputs sized by the
// rules) by name, and runs it. Lives in the libtorch engine module.
SimOutcome simulate(const OpSpec& spec, const std::string& kernelSource, const std::string& file, std::span<const Tensor> inputs,
                    std::span<const rules::Value> params, const SimRunOptions& options);

} // namespace ptowb::sim
