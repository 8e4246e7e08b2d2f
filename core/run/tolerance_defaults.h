#pragma once

#include "diag/diagnostic.h"
#include "run/config_files.h"
#include "spec/op_spec.h"

#include <string>
#include <vector>

namespace ptowb {

// The user's default tolerances (~/.config/ptowb/tolerances.json, then the project's
// tolerances.json): an object in op.json's "tolerance" syntax, e.g.
//   { "float16": { "rtol": 2e-3, "atol": 2e-3 }, "criteria": ["allclose"] }
// They replace the built-in per-dtype defaults; an op's own tolerance still wins.
struct ToleranceDefaults
{
    ToleranceSpec tolerance;
    Diagnostics diagnostics;
};

ToleranceDefaults loadToleranceDefaults(const std::vector<std::string>& files);
ToleranceDefaults loadToleranceDefaults(const std::vector<ConfigText>& texts);

// `own` over `defaults`: per dtype, and for criteria and thresholds that `own` sets.
ToleranceSpec withDefaults(const ToleranceSpec& own, const ToleranceSpec& defaults);

// The file text for a tolerance (what the settings dialog saves), keys in a fixed order.
std::string toleranceJson(const ToleranceSpec& tolerance);

} // namespace ptowb
