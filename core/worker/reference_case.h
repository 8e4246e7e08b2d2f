#pragma once

#include "tensor/tensor.h"

#include <nlohmann/json.hpp>
#include <string>
#include <variant>

namespace ptowb::worker {

// The `reference` request: the CPU reference of one case, run in the kernel worker so that a
// reference that never returns is stopped as a kernel is (at the case's time limit or on
// Cancel, by the client killing the worker). The request carries op.json's text, the
// reference's text, the case folder (inputs/ in, outputs/ out), the parameters and the
// outputs the rules expect; the answer is {"status": "ok"} or an error with its message.
nlohmann::json runReferenceCase(const nlohmann::json& request);

// Reads inputs/<name>.npy of a request's case folder. When the request names the inputs' shapes
// and dtypes ("input_shapes": {name: {"shape", "dtype"}}), a file holding anything else is
// refused by its header, before its data is read.
std::variant<Tensor, std::string> readCaseInput(const nlohmann::json& request,
                                                const std::string& name);

} // namespace ptowb::worker
