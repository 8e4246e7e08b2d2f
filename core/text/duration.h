#pragma once

#include <string>

namespace ptowb {

// A duration as people read it: "1.25 s", "46.4 ms", "12.3 µs", "80 ns" (three significant
// digits at most), never "4.6409e-05 s".
std::string formatDuration(double seconds);

} // namespace ptowb
