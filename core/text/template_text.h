#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ptowb {

// Replaces every @KEY@ of `text` by its value, in one left-to-right pass: replacement text is
// never scanned again, so a value containing "@KEY@" stays as it is.
std::string fillTemplate(std::string_view text,
                         const std::vector<std::pair<std::string, std::string>>& values);

} // namespace ptowb
