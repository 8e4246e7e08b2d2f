#pragma once

#include <map>
#include <string>
#include <vector>

namespace ptowb {

// The "{name}" placeholders of a configured command's arguments (runners.json, deploy.json):
// one reading of them for checking and for expanding.

// The names in `argument`, in order ("{run_dir}/{case}" -> run_dir, case).
std::vector<std::string> placeholderNames(const std::string& argument);

// Every placeholder with a value replaced by it, in one pass: a value that itself holds
// "{name}" stays as it is. Placeholders without a value are left as written.
std::string expandPlaceholders(const std::string& argument,
                               const std::map<std::string, std::string>& values);

// "{a} {b} {c}": the names as a user writes them, for messages.
std::string placeholderList(const std::vector<std::string>& names);

} // namespace ptowb
