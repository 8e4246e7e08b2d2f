#pragma once

// PyPTO's CostModel report (_simulate.stat.report.txt, written by the real package in
// RunMode.SIM): its total cycles and the use of each pipe, as "Name....: value" lines. Standard
// C++ only.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ptowb::cost {

// One pipe of the report's "Core Machine Top Statistics": how many pipes of that kind were used
// and their average busy cycles (and that as a share of the total).
struct PipeUsage
{
    std::string name; // "vector", "cube", "mte_in", "mte1", "mte_out"
    std::int64_t used = 0;
    double averageCycles = 0;
    double share = 0; // 0..1
};

struct PyptoCostReport
{
    std::int64_t totalCycles = 0;
    std::vector<PipeUsage> pipes;
};

// Where PyPTO writes its report and swimlane, relative to one run's output folder.
inline constexpr const char* kPyptoReportFile =
    "CostModelSimulationOutput/_simulate.stat.report.txt";
inline constexpr const char* kPyptoSwimlaneFile = "CostModelSimulationOutput/merged_swimlane.json";

// The workbench platform that describes the machine PyPTO 0.2.0's CostModel simulates
// (_simulate.config.ini: deviceArch = A2A3): our estimate compares with PyPTO's on it.
inline constexpr const char* kPyptoSimulatedPlatform = "Ascend910B2";

// The report read from its text; nullopt when it names no total cycles.
std::optional<PyptoCostReport> parsePyptoReport(const std::string& text);

// run.json's "pipes": {"vector": {"used": 43, "average_cycles": 173.4, "share": 0.003}, ...}.
nlohmann::ordered_json pipesJson(const std::vector<PipeUsage>& pipes);

} // namespace ptowb::cost
