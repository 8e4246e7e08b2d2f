#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace ptowb {

// JSON written for people to read and edit: indented by two spaces like dump(2), except that
// an array holding no object stays on one line when that line fits in `width` characters
// (`"shape": [16, 64]`, `"tile_shapes": [[128, 128], [64, 64]]`), and so does a literal dict
// (`{"dict": [[2, 4]]}`). Ends without a newline.
std::string readableJson(const nlohmann::ordered_json& value, std::size_t width = 100);

} // namespace ptowb
