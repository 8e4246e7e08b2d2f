#pragma once

// Reading a kernel file's recording (the `record` answer of the kernel worker): JSON that came
// out of the author's own code, so every accessor tolerates a missing key or a wrong type and
// gives an empty value instead.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ptowb::importer {

// The member `key` of an object; null for anything else.
const nlohmann::json& member(const nlohmann::json& j, const char* key);
// The member `key` when it is a list; an empty list otherwise.
const nlohmann::json& list(const nlohmann::json& j, const char* key);
// The member `key` when it is a string; "" otherwise.
std::string text(const nlohmann::json& j, const char* key);
// The member `key` when it is an integer; `fallback` otherwise.
int number(const nlohmann::json& j, const char* key, int fallback);
// A recorded shape: a list of ints, else empty.
std::vector<std::int64_t> shapeOf(const nlohmann::json& described);
// A name op.json accepts ([a-z_][a-z0-9_]*), from any spelling.
std::string identifier(const std::string& spelled);
// A recorded value as a rule literal ("3", "0.5", "'mean'", "[1, 2]"); none for another kind.
std::optional<std::string> literal(const nlohmann::json& described);
// A config's recorded field in one call (null when the call did not pass the config).
const nlohmann::json& fieldOf(const nlohmann::json* config, const std::string& field);
// The recorded argument `name` of a kernel call; null when the call has none.
const nlohmann::json* argument(const nlohmann::json& call, const std::string& name);

} // namespace ptowb::importer
