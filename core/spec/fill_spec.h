#pragma once

#include "spec/op_spec.h"

#include <span>
#include <string_view>
#include <variant>

namespace ptowb {

// The fills a case input may name other than file:<path>.npy, each once.
struct FillForm
{
    const char* name; // "normal"
    FillSpec::Kind kind;
    bool takesArgs;      // two numbers
    const char* written; // "normal(mean, std)"
    const char* doc;
};
std::span<const FillForm> fillForms();

// Parses a case input's "fill": normal(mean, std), uniform(lo, hi), arange, zeros, ones,
// randint(lo, hi) or file:<path>.npy. Returns the reason when the text is not one of those.
std::variant<FillSpec, std::string> parseFillSpec(std::string_view text);

std::string fillSpecToString(const FillSpec& fill);

// The fill used when a case input names none: normal(0, 1) for floats, small integers otherwise.
FillSpec defaultFill(DType dtype);

} // namespace ptowb
