#include "cost/cost_model.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

namespace ptowb::cost {

Platform loadPlatform(const std::string& path, std::string& error)
{
    Platform p;
    std::ifstream in(path);
    if (!in) {
        error = "cannot open the platform file " + path;
        return p;
    }
    const auto json = nlohmann::json::parse(in, nullptr, false);
    if (json.is_discarded() || !json.is_object()) {
        error = path + " is not JSON";
        return p;
    }
    try {
        p.name = json.at("name").get<std::string>();
        p.cores = json.at("cores").get<int>();
        p.unifiedBufferBytes = json.at("unified_buffer_bytes").get<std::int64_t>();
        p.vectorElementsPerCycle = json.at("vector_fp16_elements_per_cycle").get<double>();
        p.cubeFlopsPerCycle = json.at("cube_fp16_flops_per_cycle").get<double>();
        p.clockGHz = json.at("clock_ghz").get<double>();
        p.memoryGBps = json.at("memory_gbps").get<double>();
        p.vectorOpCycles = json.value("vector_op_cycles", 0.0);
        p.cubeOpCycles = json.value("cube_op_cycles", 0.0);
        p.memoryOpCycles = json.value("memory_op_cycles", 0.0);
        p.launchCycles = json.value("launch_cycles", 0.0);
        p.parallelIterations = json.value("parallel_iterations", 1.0);
        p.source = json.value("source", "");
    } catch (const std::exception& e) {
        error = path + ": " + e.what();
        return p;
    }
    if (p.cores < 1 || p.unifiedBufferBytes <= 0 || p.vectorElementsPerCycle <= 0 ||
        p.cubeFlopsPerCycle <= 0 || p.clockGHz <= 0 || p.memoryGBps <= 0)
        error = path + ": every throughput must be positive";
    else if (p.vectorOpCycles < 0 || p.cubeOpCycles < 0 || p.memoryOpCycles < 0 ||
             p.launchCycles < 0)
        error = path + ": no fixed cost may be negative";
    else if (!(p.parallelIterations >= 1))
        error = path + ": parallel_iterations must be at least 1";
    return p;
}

void ElapsedTime::add(double us)
{
    (m_loops.empty() ? m_elapsed : m_loops.back().current) += us;
}

void ElapsedTime::beginLoop()
{
    m_loops.push_back({});
}

void ElapsedTime::closeIteration(Loop& loop)
{
    if (!loop.started) return;
    if (loop.serial) {
        loop.serialFinished += loop.current;
    } else {
        loop.finished += loop.current;
        loop.longest = std::max(loop.longest, loop.current);
    }
    loop.current = 0;
    loop.started = loop.serial = false;
}

void ElapsedTime::serializeIteration()
{
    if (!m_loops.empty()) m_loops.back().serial = true;
}

void ElapsedTime::nextIteration()
{
    if (m_loops.empty()) return;
    closeIteration(m_loops.back());
    m_loops.back().started = true;
}

void ElapsedTime::endLoop(double parallelIterations)
{
    if (m_loops.empty()) return;
    Loop loop = m_loops.back();
    m_loops.pop_back();
    closeIteration(loop);
    add(loop.serialFinished + loop.longest +
        (loop.finished - loop.longest) / std::max(parallelIterations, 1.0));
}

void CostModel::add(int line, const std::string& what, UnitKind unit, double us,
                    CostReport& report) const
{
    // The trace lays every op end to end (the work); the elapsed time overlaps loop iterations.
    if (report.events.size() < kMaxTraceEvents) {
        report.events.push_back({line, what, unit, report.totalUs, us});
    } else {
        LineCost& c = report.droppedLines[line];
        c.line = line;
        if (c.executions++ == 0) c.firstOp = what;
        c.unitUs[int(unit)] += us;
        c.totalUs += us;
        ++report.droppedEvents;
    }
    report.totalUs += us;
    report.elapsed.add(us);
}

void CostModel::vector(int line, const std::string& what, const VectorWork& work,
                       CostReport& report) const
{
    const double rate = m_platform.vectorElementsPerCycle * (work.itemSize >= 4 ? 0.5 : 1.0);
    add(line, what, UnitKind::Vector,
        (m_platform.vectorOpCycles * double(std::max<std::int64_t>(work.tiles, 1)) +
         double(work.elements) / rate) /
            (m_platform.clockGHz * 1e3),
        report);
}

void CostModel::cube(int line, const std::string& what, std::int64_t m, std::int64_t n,
                     std::int64_t k, CostReport& report) const
{
    const double flops = 2.0 * double(m) * double(n) * double(k);
    add(line, what, UnitKind::Cube,
        (m_platform.cubeOpCycles + flops / m_platform.cubeFlopsPerCycle) /
            (m_platform.clockGHz * 1e3),
        report);
}

void CostModel::memory(int line, const std::string& what, std::int64_t bytes, std::int64_t tiles,
                       CostReport& report) const
{
    add(line, what, UnitKind::Memory,
        m_platform.memoryOpCycles * double(std::max<std::int64_t>(tiles, 1)) /
                (m_platform.clockGHz * 1e3) +
            double(bytes) / (m_platform.memoryGBps * 1e3),
        report);
}

std::vector<std::pair<int, double>> CostReport::perLine() const
{
    std::vector<std::pair<int, double>> out;
    for (const LineCost& c : byLine())
        out.emplace_back(c.line, c.totalUs);
    return out;
}

std::vector<LineCost> CostReport::byLine() const
{
    std::map<int, LineCost> lines;
    for (const auto& e : events) {
        LineCost& c = lines[e.line];
        c.line = e.line;
        if (c.executions++ == 0) c.firstOp = e.what;
        c.unitUs[int(e.unit)] += e.durationUs;
        c.totalUs += e.durationUs;
    }
    for (const auto& [line, dropped] : droppedLines) {
        LineCost& c = lines[line];
        c.line = line;
        if (c.executions == 0) c.firstOp = dropped.firstOp;
        c.executions += dropped.executions;
        for (int unit = 0; unit < 4; ++unit)
            c.unitUs[unit] += dropped.unitUs[unit];
        c.totalUs += dropped.totalUs;
    }
    std::vector<LineCost> out;
    for (auto& [line, cost] : lines)
        out.push_back(std::move(cost));
    return out;
}

const char* unitName(UnitKind unit)
{
    static const char* const kUnits[] = {"vector", "cube", "memory", "scalar"};
    return kUnits[int(unit)];
}

namespace {

// What a capped trace says about the executions it left out: otherData's "dropped_events" and
// "dropped_lines" ([{"line", "executions", "unit_us": [4], "first_op"}]).
void readDropped(const nlohmann::json& trace, CostReport& report)
{
    const auto other = trace.find("otherData");
    if (other == trace.end() || !other->is_object()) return;
    if (const auto n = other->find("dropped_events");
        n != other->end() && n->is_number_integer() && n->get<std::int64_t>() > 0)
        report.droppedEvents = n->get<std::int64_t>();
    const auto lines = other->find("dropped_lines");
    if (lines == other->end() || !lines->is_array()) return;
    for (const auto& l : *lines) {
        if (!l.is_object() || !l.contains("line") || !l["line"].is_number_integer()) continue;
        LineCost c;
        c.line = l["line"].get<int>();
        if (l.contains("executions") && l["executions"].is_number_integer())
            c.executions = l["executions"].get<int>();
        if (l.contains("first_op") && l["first_op"].is_string())
            c.firstOp = l["first_op"].get<std::string>();
        if (l.contains("unit_us") && l["unit_us"].is_array() && l["unit_us"].size() == 4)
            for (int unit = 0; unit < 4; ++unit)
                if (l["unit_us"][unit].is_number()) {
                    c.unitUs[unit] = l["unit_us"][unit].get<double>();
                    c.totalUs += c.unitUs[unit];
                }
        report.droppedLines[c.line] = std::move(c);
    }
}

} // namespace

CostReport costReportFromTrace(const std::string& traceJson)
{
    CostReport report;
    const auto json = nlohmann::json::parse(traceJson, nullptr, false);
    if (!json.is_object() || !json.contains("traceEvents") || !json["traceEvents"].is_array())
        return report;
    if (const auto other = json.find("otherData"); other != json.end() && other->is_object()) {
        if (other->contains("platform") && (*other)["platform"].is_string())
            report.platform = (*other)["platform"].get<std::string>();
        if (other->contains("total_us") && (*other)["total_us"].is_number())
            report.totalUs = (*other)["total_us"].get<double>();
    }
    for (const auto& e : json["traceEvents"]) {
        if (!e.is_object() || e.value("ph", "") != "X" || !e.contains("args") ||
            !e["args"].is_object())
            continue;
        const auto& args = e["args"];
        if (!args.contains("line") || !args["line"].is_number_integer() || !e.contains("dur") ||
            !e["dur"].is_number())
            continue;
        CostEvent event;
        event.line = args["line"].get<int>();
        event.durationUs = e["dur"].get<double>();
        if (e.contains("ts") && e["ts"].is_number()) event.startUs = e["ts"].get<double>();
        if (e.contains("name") && e["name"].is_string()) event.what = e["name"].get<std::string>();
        const int tid = e.contains("tid") && e["tid"].is_number_integer() ? e["tid"].get<int>() : 0;
        event.unit = tid >= 0 && tid < 4 ? UnitKind(tid) : UnitKind::Vector;
        report.totalUs = std::max(report.totalUs, event.startUs + event.durationUs);
        report.events.push_back(std::move(event));
    }
    readDropped(json, report);
    return report;
}

std::string CostReport::traceJson(const std::string& kernelName) const
{
    nlohmann::json trace = nlohmann::json::array();
    trace.push_back({{"name", "process_name"},
                     {"ph", "M"},
                     {"pid", 1},
                     {"args", {{"name", kernelName + " on " + platform + " (estimate)"}}}});
    for (int unit = 0; unit < 4; ++unit)
        trace.push_back({{"name", "thread_name"},
                         {"ph", "M"},
                         {"pid", 1},
                         {"tid", unit},
                         {"args", {{"name", unitName(UnitKind(unit))}}}});
    for (const auto& e : events)
        trace.push_back({{"name", e.what},
                         {"ph", "X"},
                         {"pid", 1},
                         {"tid", int(e.unit)},
                         {"ts", e.startUs},
                         {"dur", e.durationUs},
                         {"args", {{"line", e.line}}}});
    nlohmann::json other = {{"platform", platform}, {"total_us", totalUs}};
    if (droppedEvents > 0) {
        const double end = events.empty() ? 0 : events.back().startUs + events.back().durationUs;
        trace.push_back({{"name", "ptowb: " + std::to_string(droppedEvents) +
                                      " later operations are left out of this trace (it keeps "
                                      "the first " +
                                      std::to_string(kMaxTraceEvents) +
                                      "); the total and the per-line costs count them"},
                         {"ph", "i"},
                         {"s", "g"},
                         {"pid", 1},
                         {"tid", 0},
                         {"ts", end}});
        other["dropped_events"] = droppedEvents;
        nlohmann::json lines = nlohmann::json::array();
        for (const auto& [line, c] : droppedLines)
            lines.push_back({{"line", line},
                             {"executions", c.executions},
                             {"unit_us", {c.unitUs[0], c.unitUs[1], c.unitUs[2], c.unitUs[3]}},
                             {"first_op", c.firstOp}});
        other["dropped_lines"] = std::move(lines);
    }
    return nlohmann::json{
               {"traceEvents", trace}, {"displayTimeUnit", "ns"}, {"otherData", std::move(other)}}
               .dump(1) +
           "\n";
}

} // namespace ptowb::cost
