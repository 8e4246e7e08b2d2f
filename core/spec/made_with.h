#pragma once

#include "spec/spec_reader.h"

#include <nlohmann/json.hpp>
#include <string>

namespace ptowb {

// op.json's "kernel": {"made_with": {"dtype": "float16", "tiles": [64, 64], "cols": null}}: the
// arguments of the factory kernel.made_by names, each a rule over no input or parameter (the
// kernel is made once, before any case), a list given as is, null, or a config of a class of the
// kernel file built from such fields ({"class": "TileConfig", "fields": {"rows": "8"}}, the fields
// not given keeping the class's defaults). Returns them evaluated, as
// the kernel worker takes them ({"dtype": name} for a dtype), as JSON object text; "" when there
// are none. Problems are reported through `reader` at their place in op.json.
std::string readMadeWith(SpecReader& reader, const nlohmann::json& kernel,
                         const std::string& pointer, const std::string& madeBy);

} // namespace ptowb
