#include "run/reports.h"

#include <cmath>
#include <cstdio>

namespace ptowb {
namespace {

// JSON has no Inf or NaN; such values are written as null.
nlohmann::ordered_json number(double v)
{
    return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
}

std::string xmlEscape(const std::string& text)
{
    std::string out;
    for (unsigned char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&apos;";
            break;
        default:
            if (c < 0x20 && c != '\n' && c != '\t')
                out += ' '; // not allowed in XML 1.0
            else
                out += char(c);
        }
    }
    return out;
}

std::string format(const char* pattern, double v)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, pattern, v);
    return buf;
}

} // namespace

// "58002 cycles (pypto 0.2.0); pypto-sim produces no values, nothing compared".
std::string costOnlyLine(const VerificationReport& r, const CaseVerification& c)
{
    std::string line;
    if (c.cost.is_object() && c.cost.contains("total_cycles"))
        line = std::to_string(c.cost["total_cycles"].get<std::int64_t>()) + " cycles (" +
               c.cost.value("source", std::string()) + "); ";
    return line + r.target + " produces no values, nothing compared";
}

nlohmann::ordered_json comparisonJson(const Comparison& c, const Verdict& v)
{
    nlohmann::ordered_json j;
    j["verdict"] = v.pass ? "pass" : "fail";
    j["reason"] = v.reason;
    j["rule"] = v.rule;
    j["shape"] = c.actualShape;
    j["dtype"] = std::string(dtypeName(c.actualDType));
    if (!c.shapesMatch) {
        j["expected_shape"] = c.expectedShape;
        j["metrics"] = nullptr;
        j["worst"] = nlohmann::ordered_json::array();
        return j;
    }
    if (c.actualDType != c.expectedDType)
        j["expected_dtype"] = std::string(dtypeName(c.expectedDType));
    const ErrorMetrics& m = c.metrics;
    nlohmann::ordered_json metrics;
    metrics["max_abs_error"] = number(m.maxAbsError);
    metrics["mean_abs_error"] = number(m.meanAbsError);
    metrics["max_rel_error"] = number(m.maxRelError);
    metrics["mean_rel_error"] = number(m.meanRelError);
    metrics["rmse"] = number(m.rmse);
    metrics["cosine"] = number(m.cosine);
    metrics["rel_euclidean"] = number(m.relEuclidean);
    metrics["mismatch_count"] = m.mismatchCount;
    metrics["mismatch_ratio"] = number(m.mismatchRatio);
    metrics["double_thousandth_ratio"] = number(m.doubleThousandthRatio);
    metrics["max_ulp"] = m.maxUlp ? number(*m.maxUlp) : nlohmann::ordered_json(nullptr);
    metrics["nan_actual"] = m.nanActual;
    metrics["nan_expected"] = m.nanExpected;
    metrics["inf_actual"] = m.infActual;
    metrics["inf_expected"] = m.infExpected;
    j["metrics"] = metrics;
    if (const auto& u = c.uniformError)
        j["uniform_error"] = {{"summary", u->describe()},
                              {"scale", number(u->scale)},
                              {"offset", number(u->offset)},
                              {"residual_rms", number(u->residualRms)}};
    else
        j["uniform_error"] = nullptr;
    j["worst"] = nlohmann::ordered_json::array();
    for (const WorstElement& w : c.worst)
        j["worst"].push_back({{"index", w.index},
                              {"actual", number(w.actual)},
                              {"expected", number(w.expected)},
                              {"abs_error", number(w.absError)}});
    return j;
}

nlohmann::ordered_json verificationJson(const VerificationReport& r)
{
    nlohmann::ordered_json j;
    j["op"] = r.op;
    j["against"] = r.target;
    j["verdict"] = r.pass() ? "pass" : "fail";
    j["reference_run"] = r.referenceRunDir;
    j["target_run"] = r.targetRunDir;
    j["cases"] = nlohmann::ordered_json::array();
    for (const CaseVerification& c : r.cases) {
        nlohmann::ordered_json cj;
        cj["name"] = c.caseName;
        cj["verdict"] = c.pass() ? "pass" : "fail";
        cj["duration_s"] = c.seconds;
        if (!c.error.empty()) {
            cj["error"] = c.error;
            cj["stderr_tail"] = c.stderrTail;
        }
        if (c.costOnly) cj["compared"] = false;
        if (!c.cost.is_null()) cj["cost"] = c.cost;
        cj["outputs"] = nlohmann::ordered_json::object();
        for (const OutputCheck& o : c.outputs)
            cj["outputs"][o.name] = comparisonJson(o.comparison, o.verdict);
        if (!c.unchecked.empty()) cj["unchecked"] = c.unchecked;
        j["cases"].push_back(cj);
    }
    return j;
}

std::string verificationJUnit(const VerificationReport& r)
{
    int tests = 0, failures = 0, errors = 0, skipped = 0;
    double seconds = 0;
    for (const CaseVerification& c : r.cases) {
        seconds += c.seconds;
        if (!c.error.empty() || c.costOnly) {
            ++tests;
            errors += !c.error.empty();
            continue;
        }
        for (const OutputCheck& o : c.outputs) {
            ++tests;
            failures += !o.verdict.pass;
        }
        skipped += int(c.unchecked.size());
        tests += int(c.unchecked.size());
    }
    std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    x += "<testsuites name=\"ptowb verify\" tests=\"" + std::to_string(tests) + "\" failures=\"" +
         std::to_string(failures) + "\" errors=\"" + std::to_string(errors) + "\" time=\"" +
         format("%.3f", seconds) + "\">\n";
    x += "  <testsuite name=\"" + xmlEscape(r.op + " vs " + r.target) + "\" tests=\"" +
         std::to_string(tests) + "\" failures=\"" + std::to_string(failures) + "\" errors=\"" +
         std::to_string(errors) + "\" skipped=\"" + std::to_string(skipped) + "\" time=\"" +
         format("%.3f", seconds) + "\">\n";
    for (const CaseVerification& c : r.cases) {
        const std::string classname = xmlEscape(r.op + "." + c.caseName);
        if (!c.error.empty()) {
            x += "    <testcase classname=\"" + classname + "\" name=\"run\" time=\"" +
                 format("%.3f", c.seconds) + "\">\n";
            x += "      <error message=\"" + xmlEscape(c.error) + "\">" + xmlEscape(c.stderrTail) +
                 "</error>\n";
            x += "    </testcase>\n";
            continue;
        }
        if (c.costOnly) {
            x += "    <testcase classname=\"" + classname + "\" name=\"cost\" time=\"" +
                 format("%.3f", c.seconds) + "\">\n      <system-out>" +
                 xmlEscape(costOnlyLine(r, c)) + "</system-out>\n    </testcase>\n";
            continue;
        }
        for (const OutputCheck& o : c.outputs) {
            x += "    <testcase classname=\"" + classname + "\" name=\"" + xmlEscape(o.name) +
                 "\" time=\"" + format("%.3f", c.seconds) + "\">\n";
            if (!o.verdict.pass)
                x += "      <failure message=\"" + xmlEscape(o.verdict.reason) + "\">" +
                     xmlEscape(comparisonJson(o.comparison, o.verdict).dump(2)) + "</failure>\n";
            else
                x += "      <system-out>" + xmlEscape(o.verdict.rule + ": " + o.verdict.reason) +
                     "</system-out>\n";
            x += "    </testcase>\n";
        }
        for (const std::string& name : c.unchecked)
            x += "    <testcase classname=\"" + classname + "\" name=\"" + xmlEscape(name) +
                 "\" time=\"0.000\">\n      <skipped message=\"its test checked no value\"/>\n"
                 "    </testcase>\n";
    }
    x += "  </testsuite>\n</testsuites>\n";
    return x;
}

std::string verificationSummary(const VerificationReport& r)
{
    std::string out;
    for (const CaseVerification& c : r.cases) {
        if (!c.error.empty()) {
            out += "ERROR " + c.caseName + ": " + c.error + "\n";
            if (!c.stderrTail.empty())
                out +=
                    "      stderr: " +
                    c.stderrTail.substr(c.stderrTail.size() > 400 ? c.stderrTail.size() - 400 : 0) +
                    "\n";
            continue;
        }
        if (c.costOnly) {
            out += "COST  " + c.caseName + ": " + costOnlyLine(r, c) + "\n";
            continue;
        }
        for (const OutputCheck& o : c.outputs) {
            out += std::string(o.verdict.pass ? "PASS  " : "FAIL  ") + c.caseName + "/" + o.name +
                   ": " + o.verdict.reason + " [" + o.verdict.rule + "]\n";
            if (!o.verdict.pass && !o.comparison.worst.empty()) {
                const WorstElement& w = o.comparison.worst.front();
                std::string index;
                for (auto i : w.index)
                    index += (index.empty() ? "" : ", ") + std::to_string(i);
                out += "      worst at [" + index + "]: actual " + format("%g", w.actual) +
                       ", expected " + format("%g", w.expected) + "\n";
            }
        }
        for (const std::string& name : c.unchecked)
            out += "SKIP  " + c.caseName + "/" + name +
                   ": not compared (op.json's case gives it no expected value: its test checked "
                   "none)\n";
    }
    return out;
}

} // namespace ptowb
