#include "cost/pypto_line_cycles.h"

#include <cstdlib>
#include <filesystem>
#include <unordered_map>

namespace ptowb::cost {

namespace {

namespace fs = std::filesystem;

// The same file, however the two paths spell it ("./kernel.py", a folder reached by a link).
class KernelFileMatcher
{
public:
    explicit KernelFileMatcher(const std::string& kernelFile) : m_kernel(normal(kernelFile)) {}

    bool matches(const std::string& file)
    {
        auto [it, added] = m_known.try_emplace(file, false);
        if (added) it->second = normal(file) == m_kernel;
        return it->second;
    }

private:
    static fs::path normal(const std::string& path)
    {
        std::error_code ec;
        fs::path p = fs::weakly_canonical(fs::path(path), ec);
        return ec ? fs::path(path).lexically_normal() : p;
    }
    fs::path m_kernel;
    std::unordered_map<std::string, bool> m_known;
};

// op number → kernel line, for every op of every function that names a line of the kernel.
std::variant<std::unordered_map<std::int64_t, int>, std::string>
kernelLinesOfOps(const nlohmann::json& program, KernelFileMatcher& kernel)
{
    if (!program.is_object() || !program.contains("functions") || !program["functions"].is_array())
        return std::string("program.json has no \"functions\" list");
    std::unordered_map<std::int64_t, int> lines;
    for (const auto& function : program["functions"]) {
        if (!function.is_object()) continue;
        const auto ops = function.find("operations");
        if (ops == function.end() || !ops->is_array()) continue;
        for (const auto& op : *ops) {
            if (!op.is_object()) continue;
            const auto magic = op.find("opmagic"), file = op.find("file"), line = op.find("line");
            if (magic == op.end() || !magic->is_number_integer() || file == op.end() ||
                !file->is_string() || line == op.end() || !line->is_number_integer())
                continue;
            const auto number = line->get<std::int64_t>();
            if (number < 1 || number > 1'000'000'000 || !kernel.matches(file->get<std::string>()))
                continue;
            lines.emplace(magic->get<std::int64_t>(), int(number));
        }
    }
    return lines;
}

// "10063 COPY_IN 13 DDR_…" → 10063; -1 when the text does not start with a number.
std::int64_t opNumber(const std::string& tileOp)
{
    const char* begin = tileOp.c_str();
    char* end = nullptr;
    const long long n = std::strtoll(begin, &end, 10);
    return end == begin || n < 0 ? -1 : std::int64_t(n);
}

std::int64_t busyCycles(const nlohmann::json& entry)
{
    const auto start = entry.find("execStart"), end = entry.find("execEnd");
    if (start == entry.end() || end == entry.end() || !start->is_number_integer() ||
        !end->is_number_integer())
        return 0;
    const auto s = start->get<std::int64_t>(), e = end->get<std::int64_t>();
    // Cycle counts of one op fit easily; anything else is not a duration.
    return e > s && e - s < (std::int64_t(1) << 48) ? e - s : 0;
}

} // namespace

std::variant<PyptoLineMap, std::string> mapPyptoCyclesToLines(const std::string& programJson,
                                                              const std::string& pipeSwimJson,
                                                              const std::string& kernelFile)
{
    const auto program = nlohmann::json::parse(programJson, nullptr, false);
    if (program.is_discarded()) return std::string("program.json is not JSON");
    const auto cores = nlohmann::json::parse(pipeSwimJson, nullptr, false);
    if (cores.is_discarded() || !cores.is_array())
        return std::string("the pipe swimlane is not a JSON list of cores");
    KernelFileMatcher kernel(kernelFile);
    auto found = kernelLinesOfOps(program, kernel);
    if (auto* e = std::get_if<std::string>(&found)) return *e;
    const auto& lineOf = std::get<std::unordered_map<std::int64_t, int>>(found);

    std::map<int, PyptoLineCycles> byLine;
    PyptoLineMap map;
    for (const auto& core : cores) {
        if (!core.is_object()) continue;
        const auto pipes = core.find("pipeLogs");
        if (pipes == core.end() || !pipes->is_object()) continue;
        for (const auto& [pipe, entries] : pipes->items()) {
            if (!entries.is_array()) continue;
            for (const auto& entry : entries) {
                if (!entry.is_object()) continue;
                const std::int64_t cycles = busyCycles(entry);
                const auto tileOp = entry.find("tileOp");
                const std::int64_t number = tileOp != entry.end() && tileOp->is_string()
                                                ? opNumber(tileOp->get<std::string>())
                                                : -1;
                const auto line = lineOf.find(number);
                if (line == lineOf.end()) {
                    map.unmappedCycles += cycles;
                    continue;
                }
                PyptoLineCycles& at = byLine[line->second];
                at.line = line->second;
                at.busyCycles += cycles;
                at.byPipe[pipe] += cycles;
            }
        }
    }
    for (auto& [line, cycles] : byLine)
        map.lines.push_back(std::move(cycles));
    return map;
}

nlohmann::ordered_json lineCyclesJson(const PyptoLineMap& map)
{
    nlohmann::ordered_json lines = nlohmann::ordered_json::array();
    for (const PyptoLineCycles& line : map.lines) {
        nlohmann::ordered_json pipes = nlohmann::ordered_json::object();
        for (const auto& [name, cycles] : line.byPipe)
            pipes[name] = cycles;
        lines.push_back({{"line", line.line}, {"busy_cycles", line.busyCycles}, {"pipes", pipes}});
    }
    return lines;
}

std::map<int, std::int64_t> busyCyclesByLine(const nlohmann::ordered_json& cost)
{
    std::map<int, std::int64_t> out;
    if (!cost.is_object()) return out;
    const auto lines = cost.find("lines");
    if (lines == cost.end() || !lines->is_array()) return out;
    for (const auto& entry : *lines) {
        if (!entry.is_object()) continue;
        const auto line = entry.find("line"), cycles = entry.find("busy_cycles");
        if (line == entry.end() || cycles == entry.end() || !line->is_number_integer() ||
            !cycles->is_number_integer())
            continue;
        const auto l = line->get<std::int64_t>();
        const auto c = cycles->get<std::int64_t>();
        if (l >= 1 && l <= 1'000'000'000 && c >= 0) out[int(l)] += c;
    }
    return out;
}

} // namespace ptowb::cost
