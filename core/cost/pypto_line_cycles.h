#pragma once

// PyPTO's CostModel cycles per kernel line. The pipe swimlane (_simulate.pipe.swim.json) lists
// every tile op each pipe of each core executed, its text starting with the op's number
// ("10063 COPY_IN …"); program.json names, for the ops the frontend made, the file and line
// they came from. Joining the two gives the busy cycles of each pipe per line of the kernel.
// Standard C++ only.
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <variant>
#include <vector>

namespace ptowb::cost {

// Where PyPTO writes them, relative to one run's output folder.
inline constexpr const char* kPyptoProgramFile = "program.json";
inline constexpr const char* kPyptoPipeSwimlaneFile =
    "CostModelSimulationOutput/_simulate.pipe.swim.json";

struct PyptoLineCycles
{
    int line = 0;
    std::int64_t busyCycles = 0;                // summed over every core and pipe
    std::map<std::string, std::int64_t> byPipe; // "MTE_IN", "VECTOR_ALU", ...
};

struct PyptoLineMap
{
    std::vector<PyptoLineCycles> lines; // by line number
    // Busy cycles of ops that name no line of the kernel (synchronisation, PyPTO's own code).
    std::int64_t unmappedCycles = 0;
};

// `kernelFile` is the kernel's path as the run imported it; program.json's file names are
// compared with it after normalising both. An error names what is malformed.
std::variant<PyptoLineMap, std::string> mapPyptoCyclesToLines(const std::string& programJson,
                                                              const std::string& pipeSwimJson,
                                                              const std::string& kernelFile);

// run.json's "lines": [{"line": 13, "busy_cycles": 285280, "pipes": {"MTE_IN": 247664, ...}}].
nlohmann::ordered_json lineCyclesJson(const PyptoLineMap& map);
// The reverse, for the app: line → busy cycles; malformed entries are left out.
std::map<int, std::int64_t> busyCyclesByLine(const nlohmann::ordered_json& cost);

} // namespace ptowb::cost
