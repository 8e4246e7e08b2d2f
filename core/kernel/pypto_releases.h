#pragma once

#include <string_view>
#include <vector>

namespace ptowb::kernel {

// The published PyPTO releases the workbench knows the API of (pypto_releases.cpp, generated from
// tests/data/pypto_api/public_api.json), and the functions each one lacks that the workbench's
// `pypto` has: a kernel calling one runs here but not under that release.
bool knownRelease(std::string_view version);
// `name` as called: "tanh" for pypto.tanh, pypto.op.tanh and pypto.experimental.tanh.
bool releaseLacks(std::string_view version, std::string_view name);

} // namespace ptowb::kernel
