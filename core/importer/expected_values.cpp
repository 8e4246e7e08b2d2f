#include "importer/import_builder.h"
#include "importer/recording_json.h"

#include <algorithm>
#include <map>

namespace ptowb::importer {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

namespace {

// The file holding what the file's test compared `result` of call `index` with, saved by the
// recorder ("" when no comparison of it was saved).
std::string expectedFile(const json& recording, int index, const std::string& result)
{
    for (const auto& c : list(recording, "compares"))
        if (number(c, "call", -1) == index && text(c, "output") == result &&
            !text(c, "expected_file").empty())
            return text(c, "expected_file");
    return {};
}

} // namespace

// No reference could be written: the cases whose test compared results with values take those
// values as their expected results (op.json's case "expected"; null for a result it did not
// compare), with their inputs as the test made them, so verify checks the kernel as the test did.
// Cases the test checked nothing of are left out; none are when no case has expected values.
bool Builder::describeExpectedValues(ojson& op)
{
    std::vector<const Plan*> results = plans(Role::Output);
    for (const Plan* p : plans(Role::Mutated))
        results.push_back(p);
    if (results.empty() || m_calls.empty()) return false;
    ojson kept = ojson::array();
    std::vector<std::string> left, unruled;
    std::map<std::string, std::vector<std::string>> uncheckedByResult;
    for (std::size_t k = 0; k < m_calls.size() && k < op["cases"].size(); ++k) {
        ojson c = op["cases"][k];
        const int index = m_calls[k].first;
        // An output whose rule is the first call's shape or dtype: a call that differs has
        // expected values the rules do not describe.
        const bool ruled = std::all_of(results.begin(), results.end(), [&](const Plan* r) {
            const json* v = k < r->values.size() ? r->values[k] : nullptr;
            const auto shape = m_firstCallShapes.find(r->name);
            const auto dtype = m_firstCallDtypes.find(r->name);
            return !v || ((shape == m_firstCallShapes.end() || shapeOf(*v) == shape->second) &&
                          (dtype == m_firstCallDtypes.end() || text(*v, "dtype") == dtype->second));
        });
        if (!ruled) {
            unruled.push_back(m_caseNames[k]);
            continue;
        }
        // A result the test compared nothing with is null: verify leaves it unchecked, as the
        // test did (a mutated input it reads no more, a scratch output).
        ojson expected = ojson::object();
        std::vector<ProjectFile> files;
        std::size_t compared = 0;
        for (const Plan* r : results) {
            const std::string file = expectedFile(m_recording, index, r->name);
            if (file.empty()) {
                expected[r->name] = nullptr;
                uncheckedByResult[r->name].push_back(m_caseNames[k]);
                continue;
            }
            const std::string inProject =
                "cases/" + m_caseNames[k] + "/" + r->name + ".expected.npy";
            files.push_back({file, inProject});
            expected[r->name] = "file:" + inProject;
            ++compared;
        }
        // The test's own input values: a fill made again would not give what it expected.
        bool inputsKept = compared > 0;
        for (const Plan* p : tensorInputs()) {
            if (!inputsKept) break;
            const json* v = p->values[k];
            ojson& input = c["inputs"][p->name];
            const std::string fill = input.value("fill", "");
            if (!v || fill.rfind("file:", 0) == 0 || fill == "zeros" || fill == "ones") continue;
            if (text(*v, "file").empty()) {
                inputsKept = false;
                break;
            }
            const std::string inProject = "cases/" + m_caseNames[k] + "/" + p->name + ".npy";
            files.push_back({text(*v, "file"), inProject});
            input["fill"] = "file:" + inProject;
        }
        if (!inputsKept) {
            left.push_back(m_caseNames[k]);
            continue;
        }
        c["expected"] = expected;
        kept.push_back(c);
        m_p.files.insert(m_p.files.end(), files.begin(), files.end());
    }
    if (kept.empty()) return false;
    op["cases"] = kept;
    for (const auto& [result, cases] : uncheckedByResult) {
        std::string names;
        for (const auto& n : cases)
            if (std::any_of(kept.begin(), kept.end(),
                            [&](const ojson& c) { return c["name"] == n; }))
                names += (names.empty() ? "'" : ", '") + n + "'";
        if (!names.empty())
            fillIn("/cases", Severity::Warning, "import.result-unchecked",
                   "the test of case(s) " + names + " compares no value of '" + result +
                       "', so verify does not check it (null in \"expected\"): write reference.py "
                       "to check it");
    }
    const auto leftOut = [&](const std::vector<std::string>& cases, const std::string& why) {
        std::string names;
        for (const auto& n : cases)
            names += (names.empty() ? "'" : ", '") + n + "'";
        if (!cases.empty())
            fillIn("/cases", Severity::Warning, "import.case-unchecked",
                   "the recorded call(s) " + names + " are no cases: " + why);
    };
    leftOut(left, "their test compares no value with the outputs, and there is no reference to "
                  "compute one; add them once reference.py is written");
    leftOut(unruled, "their outputs' shapes or dtypes differ from the first call's, and no rule "
                     "import found gives both; add them once the output rules are written");
    m_p.inferred.push_back(
        "expected values: " + std::to_string(kept.size()) +
        " case(s) compare with the values the file's test compared the outputs with");
    return true;
}

} // namespace ptowb::importer
