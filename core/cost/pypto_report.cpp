#include "cost/pypto_report.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>

namespace ptowb::cost {

namespace {

using uchar = unsigned char;

// "Average Vector Usage....:   173.40    0.30%" → label "Average Vector Usage", fields after ':'.
bool splitLine(const std::string& line, std::string& label, std::vector<std::string>& fields)
{
    const auto colon = line.find(':');
    if (colon == std::string::npos) return false;
    label = line.substr(0, colon);
    while (!label.empty() && (label.back() == '.' || std::isspace(uchar(label.back()))))
        label.pop_back();
    const auto first = label.find_first_not_of(" |-");
    label = first == std::string::npos ? "" : label.substr(first);
    std::istringstream rest(line.substr(colon + 1));
    fields.clear();
    for (std::string f; rest >> f;)
        fields.push_back(f);
    return !label.empty() && !fields.empty();
}

std::string pipeKey(std::string name)
{
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return name;
}

PipeUsage& pipe(std::vector<PipeUsage>& pipes, const std::string& name)
{
    const std::string key = pipeKey(name);
    for (PipeUsage& p : pipes)
        if (p.name == key) return p;
    pipes.push_back({key});
    return pipes.back();
}

} // namespace

std::optional<PyptoCostReport> parsePyptoReport(const std::string& text)
{
    PyptoCostReport report;
    bool total = false;
    std::istringstream in(text);
    std::string label;
    std::vector<std::string> fields;
    for (std::string line; std::getline(in, line);) {
        if (!splitLine(line, label, fields)) continue;
        const double value = std::strtod(fields[0].c_str(), nullptr);
        // The first "Total Cycles" is the whole run's; the per-machine sections repeat it.
        if (label == "Total Cycles" && !total) {
            report.totalCycles = std::int64_t(value);
            total = true;
        } else if (label.rfind("Used ", 0) == 0 && label.size() > 17 &&
                   label.compare(label.size() - 12, 12, " Pipe Number") == 0) {
            pipe(report.pipes, label.substr(5, label.size() - 17)).used = std::int64_t(value);
        } else if (label.rfind("Average ", 0) == 0 && label.size() > 14 &&
                   label.compare(label.size() - 6, 6, " Usage") == 0) {
            PipeUsage& p = pipe(report.pipes, label.substr(8, label.size() - 14));
            p.averageCycles = value;
            if (fields.size() > 1) p.share = std::strtod(fields[1].c_str(), nullptr) / 100.0;
        }
    }
    if (!total) return std::nullopt;
    return report;
}

nlohmann::ordered_json pipesJson(const std::vector<PipeUsage>& pipes)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const PipeUsage& p : pipes)
        out[p.name] = {{"used", p.used}, {"average_cycles", p.averageCycles}, {"share", p.share}};
    return out;
}

} // namespace ptowb::cost
