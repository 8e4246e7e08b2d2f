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
    // Fixed costs, in cycles, that throughput alone misses: issuing one op on one tile on each
    // unit (PyPTO runs a task per tile, so a kernel of small tiles pays it often), and starting
    // the kernel. Optional in the file (0); a platform calibrated against PyPTO's CostModel sets
    // them (tests/tools/calibrate_cost.py).
    double vectorOpCycles = 0;
    double cubeOpCycles = 0;
    double memoryOpCycles = 0;
    double launchCycles = 0;
    // How many iterations of a pypto.loop overlap on average: PyPTO issues every iteration's
    // tasks at once and runs them on its cores side by side, so a loop takes its longest
    // iteration plus the rest divided by this. 1 (the default): one after another.
    double parallelIterations = 1;
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

// The time a run takes when loop iterations overlap (Platform::parallelIterations), beside the
// work it does (CostReport::totalUs, every op's time summed, which the per-line costs add up to).
class ElapsedTime
{
public:
    void add(double us);
    void beginLoop();
    void nextIteration();
    // The iteration under way cannot overlap the others (it holds a chain of dependent tasks).
    void serializeIteration();
    void endLoop(double parallelIterations);
    double us() const { return m_elapsed; }

private:
    struct Loop
    {
        double finished = 0;       // the iterations done that overlap, summed
        double longest = 0;        // the longest of them
        double serialFinished = 0; // the iterations done that run alone, summed
        double current = 0;        // the iteration under way
        bool started = false;      // an iteration is under way
        bool serial = false;       // it runs alone
    };
    void closeIteration(Loop& loop);
    std::vector<Loop> m_loops;
    double m_elapsed = 0;
};

struct CostReport
{
    std::string platform;
    double totalUs = 0;
    ElapsedTime elapsed;
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

// What one vector op works on: its elements at their size, cut into `tiles` vec tiles.
struct VectorWork
{
    std::int64_t elements = 0;
    int itemSize = 2;
    std::int64_t tiles = 1;
};

class CostModel
{
public:
    explicit CostModel(const Platform& platform) : m_platform(platform) {}
    void vector(int line, const std::string& what, const VectorWork& work,
                CostReport& report) const;
    void cube(int line, const std::string& what, std::int64_t m, std::int64_t n, std::int64_t k,
              CostReport& report) const;
    void memory(int line, const std::string& what, std::int64_t bytes, std::int64_t tiles,
                CostReport& report) const;

private:
    void add(int line, const std::string& what, UnitKind unit, double us, CostReport& report) const;
    const Platform& m_platform;
};

} // namespace ptowb::cost
