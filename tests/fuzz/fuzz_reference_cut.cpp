// reference.py text -> the cuts the reference checker compiles to find the statement whose
// compiling crashed (reference/reference_checker.h): statements are lines of the text, every cut
// keeps the line count, and cutting after the last statement changes nothing.
#include "reference/reference_checker.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string source(reinterpret_cast<const char*>(data), size);
    const std::vector<int> lines = ptowb::referenceStatementLines(source);
    if (lines.empty()) return 0;
    const auto newlines = std::count(source.begin(), source.end(), '\n');
    if (!std::is_sorted(lines.begin(), lines.end()) || lines.front() < 1 ||
        lines.back() > newlines + 1)
        __builtin_trap();
    const std::string cut = ptowb::cutReferenceAfter(source, lines[lines.size() / 2] - 1);
    if (std::count(cut.begin(), cut.end(), '\n') != newlines) __builtin_trap();
    if (ptowb::cutReferenceAfter(source, lines.back()) != source) __builtin_trap();
    return 0;
}
