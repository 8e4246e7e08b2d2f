#pragma once

#include <nlohmann/json.hpp>

namespace ptowb::worker {

// The `reference` request: the CPU reference of one case, run in the kernel worker so that a
// reference that never returns is stopped as a kernel is (at the case's time limit or on
// Cancel, by the client killing the worker). The request carries op.json's text, the
// reference's text, the case folder (inputs/ in, outputs/ out), the parameters and the
// outputs the rules expect; the answer is {"status": "ok"} or an error with its message.
nlohmann::json runReferenceCase(const nlohmann::json& request);

} // namespace ptowb::worker
