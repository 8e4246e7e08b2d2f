#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ptowb::cost {

// A target's throughput, from resources/platforms/<name>.json. Every number is an estimate
// whose source the file names.
struct Platform
{
    std::string name;
    int cores = 1;
    std::int64_t unifiedBufferBytes = 0;
    double vectorElementsPerCycle = 0; // per core, fp16 elements (fp32 at half the rate)
    double cubeFlopsPerCycle = 0;      // per core, fp16 multiply-adds x 2
    double clockGHz = 1;
    double memoryGBps = 1;
    // Fixed costs, in cycles, that throughput alone misses: issuing one op on each unit, and
    // starting the kernel (scheduling its tasks). Optional in the file (0); a platform calibrated
    // against PyPTO's CostModel sets them (tests/tools/calibrate_cost.py).
    double vectorOpCycles = 0;
    double cubeOpCycles = 0;
    double memoryOpCycles = 0;
    double launchCycles = 0;
    std::string source; // where the numbers come from
};

// Reads a platform file; on failure returns an error message in `error`.
Platform loadPlatform(const std::string& path, std::string& error);

enum class UnitKind
{
    Vector,
    Cube,
    Memory,
    Scalar
};

// The estimate of one statement execution, for the total, per line, and the trace.
struct CostEvent
{
    int line = 0;
    std::string what; // "pypto.exp [1, 64] float16"
    UnitKind unit = UnitKind::Vector;
    double startUs = 0;
    double durationUs = 0;
};

// What one source line cost over every execution of it, split by unit.
struct LineCost
{
    int line = 0;
    int executions = 0;
    double unitUs[4] = {0, 0, 0, 0}; // indexed by UnitKind
    double totalUs = 0;
    std::string firstOp; // what the line's first execution did, e.g. "pypto.exp [1, 64] float16"
};

// The most events a report keeps, the first ones: a loop of a million iterations must not make a
// trace of gigabytes. Those past it are left out of `events` (and of the trace, which says so)
// but counted per line, so the per-line costs and the total stay exact. About 17 MB of trace.
inline constexpr std::size_t kMaxTraceEvents = 100000;

struct CostReport
{
    std::string platform;
    double totalUs = 0;
    std::vector<CostEvent> events;        // the first kMaxTraceEvents
    std::int64_t droppedEvents = 0;       // executions past them
    std::map<int, LineCost> droppedLines; // those, summed per line

    std::int64_t operations() const { return std::int64_t(events.size()) + droppedEvents; }
    // Microseconds per source line, summed over every execution of it.
    std::vector<std::pair<int, double>> perLine() const;
    std::vector<LineCost> byLine() const; // in line order
    // Chrome trace-event JSON (opens in Perfetto / chrome://tracing).
    std::string traceJson(const std::string& kernelName) const;
};

// A report read back from a trace written by CostReport::traceJson; no events when the text is
// not such a trace.
CostReport costReportFromTrace(const std::string& traceJson);
const char* unitName(UnitKind unit);

class CostModel
{
public:
    explicit CostModel(const Platform& platform) : m_platform(platform) {}
    void vector(int line, const std::string& what, std::int64_t elements, int itemSize,
                CostReport& report) const;
    void cube(int line, const std::string& what, std::int64_t m, std::int64_t n, std::int64_t k,
              CostReport& report) const;
    void memory(int line, const std::string& what, std::int64_t bytes, CostReport& report) const;

private:
    void add(int line, const std::string& what, UnitKind unit, double us, CostReport& report) const;
    const Platform& m_platform;
};

} // namespace ptowb::cost
