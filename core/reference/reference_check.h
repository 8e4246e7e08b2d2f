#pragma once

#include "diag/diagnostic.h"

#include <span>
#include <string>
#include <string_view>

namespace ptowb {

// reference.py is the TorchScript subset of Python wherever it runs: in the workbench, in the
// C++ op and in the Python glue. What the subset allows is decided here, on the text, before
// libtorch's parser sees it; nothing is executed.
//
// Errors, each at its line:col:
// - an import of anything but torch, torch.nn, torch.nn.functional, math and typing; a star
//   import; an import that is indented or shares its line with another statement (import lines
//   are blanked before compiling, so that statement would silently vanish);
// - a name of a torch function with effects outside the op — files, processes, the operator
//   registry (`torch.save`, `torch.load`, `torch.from_file`, `torch.ops.*`, ...) — reached from
//   torch or math, and Python's dynamic escape hatches (`getattr`, `eval`, `open`, ...);
// - nesting beyond what libtorch's recursive parser and compiler survive: brackets deeper than
//   Python's own limit, more indentation levels than Python's, statements with more operators
//   than kMaxReferenceOperators.
Diagnostics checkReferenceSource(const std::string& source, const std::string& fileName);

inline constexpr int kMaxReferenceBrackets = 200;   // CPython's tokenizer limit
inline constexpr int kMaxReferenceIndents = 100;    // CPython's tokenizer limit
inline constexpr int kMaxReferenceOperators = 1000; // per statement

// Whether a TorchScript operator ("aten::add") may appear in a compiled reference: only those of
// an allow-list of tensor math and TorchScript's own helpers (reference_operators.cpp).
bool referenceOperatorAllowed(const std::string& qualifiedName);
// That allow-list, sorted: the generated C++ op library and Python glue check their compiled
// reference against it as data.
std::span<const std::string> referenceAllowedOperators();

} // namespace ptowb
