// op.json's tolerance from the comparisons the recording holds: rtol/atol per dtype, and the
// criteria they imply (a share of mismatches, a cosine).
#include "importer/import_builder.h"
#include "importer/recording_json.h"
#include "types/dtype.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace ptowb::importer {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

void Builder::describeTolerance(ojson& op)
{
    std::map<std::string, std::pair<double, double>> byDtype;
    // The share of elements a comparison lets lie outside its tolerance (a compare helper's
    // max_error_ratio, PyPTO's pass verification): op.json's ratio criterion, when every
    // comparison allows one; a single strict comparison keeps every element to the tolerance.
    double errorRatio = 0;
    bool everyAllowsRatio = true;
    // PyPTO's pass verification (set_verify_golden_data): op.json's pass_verify criterion, when
    // every comparison is one.
    bool everyPassVerify = true;
    // A helper returning the cosine similarity (kirin's compare_cos, checked >= 0.9999): op.json's
    // cosine criterion, when every comparison of a kept call is one, with the ratio criterion
    // beside it, as a cosine cannot see a wrong scale (x * 3 against x * 2.5 is 1).
    int cosines = 0, others = 0;
    // A bare `torch.allclose(out, golden, ...)` drops its verdict: it holds the kernel to no
    // tolerance, though what it compares with is still what the test expected.
    bool discarded = false;
    for (const auto& c : list(m_recording, "compares")) {
        const int call = number(c, "call", -1);
        auto kept =
            std::find_if(m_calls.begin(), m_calls.end(), [&](auto& k) { return k.first == call; });
        if (kept == m_calls.end()) continue;
        if (member(c, "discarded") == true) {
            discarded = true;
            continue;
        }
        ++(member(c, "cosine") == true ? cosines : others);
        if (!member(c, "rtol").is_number() || !member(c, "atol").is_number()) continue;
        const json* out = argument(*kept->second, text(c, "output"));
        if (!out) continue;
        auto& [rtol, atol] = byDtype[text(*out, "dtype")];
        rtol = std::max(rtol, member(c, "rtol").get<double>());
        atol = std::max(atol, member(c, "atol").get<double>());
        everyPassVerify = everyPassVerify && text(c, "criterion") == "pass_verify";
        if (member(c, "max_error_ratio").is_number())
            errorRatio = std::max(errorRatio, member(c, "max_error_ratio").get<double>());
        else
            everyAllowsRatio = false;
    }
    if (cosines > 0 && others == 0) {
        op["tolerance"] = ojson{{"criteria", ojson::array({"cosine", "ratio"})}};
        m_p.inferred.push_back(
            "tolerance: cosine similarity at least 0.9999 (the file's comparison returns the "
            "cosine similarity) and at most 0.005 of the elements outside the workbench's "
            "tolerance (a cosine cannot see a wrong scale)");
        return;
    }
    if (byDtype.empty()) {
        m_p.inferred.push_back(
            discarded ? "tolerance: the workbench's defaults (the file's allclose drops its "
                        "result, so its tolerance checks nothing)"
                      : "tolerance: the workbench's defaults (the file compares with no "
                        "allclose/assert_close)");
        return;
    }
    ojson tolerance = ojson::object();
    for (const auto& [dtype, t] : byDtype) {
        tolerance[dtype] = ojson{{"rtol", t.first}, {"atol", t.second}};
        m_p.inferred.push_back("tolerance " + dtype + ": rtol " +
                               *literal(json{{"kind", "float"}, {"value", t.first}}) + ", atol " +
                               *literal(json{{"kind", "float"}, {"value", t.second}}) +
                               " (from the file's comparison)");
    }
    if (everyPassVerify) {
        tolerance["criteria"] = ojson::array({"pass_verify"});
        m_p.inferred.push_back("tolerance: judged as PyPTO's pass verification judges the "
                               "goldens the file states (set_verify_golden_data)");
    } else if (everyAllowsRatio && errorRatio > 0 && errorRatio <= 1) {
        tolerance["criteria"] = ojson::array({"ratio"});
        tolerance["max_error_ratio"] = errorRatio;
        m_p.inferred.push_back(
            "tolerance: at most " + *literal(json{{"kind", "float"}, {"value", errorRatio}}) +
            " of the elements may lie outside it (the file's comparison allows that share)");
    }
    // Every element held to it, as allclose holds them: a single rounding step fails.
    if (!tolerance.contains("criteria"))
        for (const auto& [dtype, t] : byDtype)
            warnIfFinerThanTheDtype(dtype, t.first, t.second);
    op["tolerance"] = tolerance;
}

// A tolerance finer than one rounding step of the dtype for values of magnitude below 1 (bf16
// compared at rtol 3e-3, atol 3e-3: one step is 2^-7 of the value) fails an output that rounds
// once differently from the golden, as the file's own test does now and then: said, since such a
// failure says nothing about the kernel. Exact comparisons (both 0) are meant.
void Builder::warnIfFinerThanTheDtype(const std::string& dtype, double rtol, double atol)
{
    const auto d = dtypeFromName(dtype);
    if (!d || dtypeInfo(*d).significandBits == 0 || atol <= 0) return;
    const int bits = dtypeInfo(*d).significandBits;
    const double step = std::ldexp(1.0, 1 - bits);
    if (rtol >= step || atol / (step - rtol) >= 1) return;
    fillIn("/tolerance/" + dtype, Severity::Warning, "import.tolerance-finer-than-dtype",
           "the file's " + dtype + " tolerance (rtol " +
               *literal(json{{"kind", "float"}, {"value", rtol}}) + ", atol " +
               *literal(json{{"kind", "float"}, {"value", atol}}) +
               ") is finer than one rounding step of " + dtype + " (2^-" +
               std::to_string(bits - 1) + " of the value) for values above " +
               *literal(json{{"kind", "float"},
                             {"value", std::round(atol / (step - rtol) * 100) / 100}}) +
               ": an output that rounds one step away from the golden there fails verify, as "
               "it fails the file's test");
}

} // namespace ptowb::importer
