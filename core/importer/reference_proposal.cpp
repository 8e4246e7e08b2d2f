#include "importer/import_builder.h"
#include "importer/recording_json.h"
#include "types/shape.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>

namespace ptowb::importer {

using json = nlohmann::json;

namespace {

// What every reference.py import proposes starts with.
const std::string kReferenceImports =
    "import math\n\nimport torch\nimport torch.nn.functional as F\nfrom torch import "
    "Tensor\nfrom typing import List, Optional, Tuple\n\n\n";

// The body of a reference still to be written: a TODO error that says `reason`.
std::string todoStatement(const std::string& kernel, const std::string& reason)
{
    std::string text; // `reason` inside a double-quoted Python string
    for (char c : reason) {
        if (c == '\\' || c == '"') text += '\\';
        text += c == '\n' ? ' ' : c;
    }
    return "    raise RuntimeError(\"TODO: write what " + kernel +
           " computes, with torch: " + text + "\")\n";
}

} // namespace

void Builder::writeReference(const std::string& opName)
{
    const std::string function = opName + "_reference";
    std::vector<std::string> signature, tensorNames;
    for (const Plan* p : tensorInputs()) {
        signature.push_back(p->name + ": Tensor");
        tensorNames.push_back(p->name);
    }
    static const std::map<std::string, std::string> pyTypes = {
        {"int", "int"}, {"float", "float"},     {"bool", "bool"},
        {"str", "str"}, {"int[]", "List[int]"}, {"float[]", "List[float]"}};
    for (const Plan* p : plans(Role::Parameter))
        signature.push_back(p->name + ": " + pyTypes.at(p->type));
    const auto outputs = plans(Role::Output);
    // An op whose only results are the inputs it updates returns None after writing them.
    std::string returns = outputs.empty() ? "None" : "Tensor";
    if (outputs.size() > 1) {
        returns = "Tuple[";
        for (std::size_t k = 0; k < outputs.size(); ++k)
            returns += (k ? ", " : "") + std::string("Tensor");
        returns += "]";
    }
    std::string head = "def " + function + "(";
    for (std::size_t k = 0; k < signature.size(); ++k)
        head += (k ? ", " : "") + signature[k];
    head += ") -> " + returns + ":\n";
    const std::string imports = kReferenceImports;

    // The golden: a function of the file called with this kernel's inputs whose result equals
    // an output (by value), best the one the file's own comparison names.
    std::map<std::string, int> votes;
    for (const auto& g : list(m_recording, "goldens"))
        for (const auto& m : list(g, "matches")) {
            const int call = number(m, "call", -1);
            if (std::none_of(m_calls.begin(), m_calls.end(),
                             [&](auto& k) { return k.first == call; }))
                continue;
            if (member(m, "close") == true)
                votes[text(g, "function")] += 2;
            else
                votes[text(g, "function")] += 0;
        }
    for (const auto& c : list(m_recording, "compares"))
        if (!text(c, "golden").empty() && votes.count(text(c, "golden")))
            votes[text(c, "golden")] += 3;
    std::string golden;
    int best = 0;
    for (const auto& [fn, v] : votes)
        if (v > best) best = v, golden = fn;
    const json& sources = member(m_recording, "golden_sources");
    const json* goldenCall = nullptr;
    for (const auto& g : list(m_recording, "goldens"))
        if (text(g, "function") == golden && !goldenCall) goldenCall = &g;

    std::string reason;
    std::string call;
    if (golden.empty() || !goldenCall || !member(sources, golden.c_str()).is_string()) {
        std::string unexpressed;
        if (writeExpressionReference(imports, head, outputs, unexpressed)) return;
        reason =
            "import found no function of the file that its tests call with the kernel's inputs "
            "and whose result equals an output, and no comparison whose expected value is "
            "computed from the inputs";
        const auto updates = comparedUpdates();
        if (std::any_of(updates.begin(), updates.end(),
                        [&](const Plan* p) { return p->name == unexpressed; }))
            reason = "import found no function of the file that gives '" + unexpressed +
                     "', which the kernel updates in place, and the test compares it with a "
                     "value no one expression over the inputs gives (one built in steps)";
    } else {
        // Its arguments: the op's inputs where the call passed the kernel's inputs, parameters
        // where it passed a parameter's value, else the recorded value.
        std::vector<std::string> args;
        for (const auto& a : list(*goldenCall, "args")) {
            const std::string kind = text(a, "kind");
            if (kind == "tensor") {
                const std::string input = text(a, "input");
                if (std::find(tensorNames.begin(), tensorNames.end(), input) == tensorNames.end()) {
                    reason = golden + "() takes a tensor that is not one of the kernel's inputs";
                    break;
                }
                args.push_back(input);
                continue;
            }
            std::string bound;
            for (const Plan* p : plans(Role::Parameter))
                if (p->values[0] && member(*p->values[0], "value") == member(a, "value") &&
                    p->type == kind)
                    if (bound.empty() || p->name == text(a, "param")) bound = p->name;
            if (bound.empty()) {
                auto value = literal(a);
                if (!value) {
                    reason = golden + "() takes '" + text(a, "param") + "', a " + text(a, "type") +
                             " value the reference cannot be given";
                    break;
                }
                bound = *value;
            }
            args.push_back(bound);
        }
        if (reason.empty()) {
            std::string invocation = golden + "(";
            for (std::size_t k = 0; k < args.size(); ++k)
                invocation += (k ? ", " : "") + args[k];
            invocation += ")";
            const json& results = list(*goldenCall, "results");
            // The result that equals result `name` (an output, an updated input) in the recorded
            // calls; -1 when none does.
            auto resultFor = [&](const std::string& name, int fallback) {
                int index = fallback;
                for (const auto& m : list(*goldenCall, "matches"))
                    if (text(m, "output") == name && member(m, "close") == true)
                        index = number(m, "result", -1);
                return index >= 0 && std::size_t(index) < results.size() ? index : -1;
            };
            std::vector<std::string> parts;
            for (std::size_t o = 0; o < outputs.size() && reason.empty(); ++o) {
                const int index = resultFor(outputs[o]->name,
                                            outputs.size() == 1 && results.size() == 1 ? 0 : -1);
                if (index < 0) {
                    reason =
                        golden + "() gives no result equal to output '" + outputs[o]->name + "'";
                    break;
                }
                std::string part = member(*goldenCall, "tuple") == true
                                       ? "result[" + std::to_string(index) + "]"
                                       : std::string("result");
                const std::string dtype = text(results[std::size_t(index)], "dtype");
                const json* out = outputs[o]->values.empty() ? nullptr : outputs[o]->values[0];
                if (out && text(*out, "dtype") != dtype)
                    part += castToOutputDtype(outputs[o]->name, text(*out, "dtype"));
                parts.push_back(part);
            }
            // An input the kernel updates and the test compares: the reference writes it too,
            // from the result that equals it.
            std::string updates;
            for (const Plan* m : comparedUpdates()) {
                if (!reason.empty()) break;
                const int index = resultFor(m->name, -1);
                if (index < 0) {
                    reason = golden + "() gives no value for '" + m->name +
                             "', which the kernel updates in place";
                    break;
                }
                updates +=
                    "    " + m->name + ".copy_(" +
                    (member(*goldenCall, "tuple") == true ? "result[" + std::to_string(index) + "]"
                                                          : std::string("result")) +
                    ")\n";
            }
            // An op with no output whose test compares no updated input: the golden's result
            // would be thrown away, and the reference would check nothing.
            if (reason.empty() && parts.empty() && updates.empty())
                reason = "the test compares none of the inputs the kernel updates, so " + golden +
                         "()'s result is no result of the op";
            if (reason.empty()) {
                std::string ret;
                for (std::size_t k = 0; k < parts.size(); ++k)
                    ret += (k ? ", " : "") + parts[k];
                call = "    result = " + invocation + "\n" + updates + "    return " +
                       (ret.empty() ? "None" : ret) + "\n";
            }
        }
    }
    if (reason.empty()) {
        // The kernel file, a test file beside it or a module of the folder that either imports.
        const std::string goldenFile = text(*goldenCall, "file");
        const std::string goldenName =
            std::filesystem::path(goldenFile.empty() ? m_kernelFile : goldenFile)
                .filename()
                .string();
        m_p.reference = imports + "# " + golden + ", from " + goldenName + " line " +
                        std::to_string(number(*goldenCall, "line", 1)) +
                        ", as the file's tests call it.\n" +
                        member(sources, golden.c_str()).get<std::string>() + "\n\n\n" + head + call;
        m_p.referenceFromGolden = true;
        m_p.inferred.push_back("reference: " + golden + "() of " + goldenName);
        return;
    }
    m_p.reference = imports + head + todoStatement(m_p.kernel, reason);
    fillIn("/reference", Severity::Error, "import.reference",
           "reference.py is to be written: " + reason);
}

void Builder::rejectGolden(const std::string& why)
{
    const std::string function = m_p.op["reference"]["function"].get<std::string>();
    std::string head, commented;
    std::istringstream lines(m_p.reference);
    for (std::string line; std::getline(lines, line);) {
        commented += "# " + line + "\n";
        if (line.rfind("def " + function + "(", 0) == 0) head = line;
    }
    const std::string reason = "the file's golden is not in the reference subset (" + why + ")";
    m_p.reference = kReferenceImports + head + "\n" + todoStatement(m_p.kernel, reason) +
                    "\n\n# What import proposed from the file:\n" + commented;
    m_p.referenceFromGolden = false;
    for (auto& line : m_p.inferred)
        if (line.rfind("reference:", 0) == 0)
            line = "reference: to be written (the file's golden is not in the reference subset)";
    fillIn("/reference", Severity::Error, "import.reference",
           "reference.py is to be written: " + reason);
}

std::vector<const Plan*> Builder::comparedUpdates() const
{
    std::vector<const Plan*> found;
    for (const Plan* p : plans(Role::Mutated)) {
        const bool compared = std::any_of(m_calls.begin(), m_calls.end(), [&](const auto& call) {
            const auto& compares = list(m_recording, "compares");
            return std::any_of(compares.begin(), compares.end(), [&](const json& c) {
                return number(c, "call", -1) == call.first && text(c, "output") == p->name;
            });
        });
        if (compared) found.push_back(p);
    }
    return found;
}

std::string Builder::castToOutputDtype(const std::string& output, const std::string& recorded) const
{
    // An output whose dtype follows an input's (bfloat16 in one case, float16 in another) is
    // cast to that input's dtype, not to the first call's.
    const auto rule = m_outputDtypeRules.find(output);
    const std::string suffix = ".dtype";
    if (rule != m_outputDtypeRules.end() && rule->second.size() > suffix.size() &&
        rule->second.compare(rule->second.size() - suffix.size(), suffix.size(), suffix) == 0)
        return ".to(" + rule->second + ")";
    return ".to(torch." + (rule != m_outputDtypeRules.end() ? rule->second : recorded) + ")";
}

// The reference as the expression each output is compared with in the file's test (recorded
// over the op's inputs), for the first kept call that compares it.
bool Builder::writeExpressionReference(const std::string& imports, const std::string& head,
                                       const std::vector<const Plan*>& outputs,
                                       std::string& unexpressed)
{
    std::vector<std::string> parts, tensorNames;
    for (const Plan* p : tensorInputs())
        tensorNames.push_back(p->name);
    int line = 0;
    bool literal = false; // a call found to give the literal value the test expects
    // The outputs, then the inputs the kernel updates that the test compares: the reference
    // computes all of them from the inputs as they were, then writes the updated ones.
    std::vector<const Plan*> results = outputs;
    for (const Plan* m : comparedUpdates())
        results.push_back(m);
    for (const Plan* output : results) {
        // Every kept call that compares this output must compare it with the same expression:
        // one that differs (a flag changes what is expected) is no reference for all cases.
        std::string found, expression;
        for (const auto& [index, call] : m_calls)
            for (const auto& c : list(m_recording, "compares")) {
                const json& e = member(c, "expression");
                if (number(c, "call", -1) != index || text(c, "output") != output->name ||
                    text(e, "expression").empty())
                    continue;
                // A constant is the reference of an op that takes neither a tensor nor a scalar
                // alone: a literal of another op may be one of its arguments' values.
                if (member(e, "constant") == true &&
                    !(tensorNames.empty() && plans(Role::Parameter).empty()))
                    continue;
                // Over the op's inputs only: an output's old contents are no reference's
                // argument.
                const auto& read = list(e, "inputs");
                if (std::any_of(read.begin(), read.end(), [&](const json& name) {
                        return !name.is_string() ||
                               std::find(tensorNames.begin(), tensorNames.end(),
                                         name.get<std::string>()) == tensorNames.end();
                    }))
                    continue;
                if (!expression.empty() && expression != text(e, "expression")) return false;
                if (!expression.empty()) break;
                expression = text(e, "expression");
                found = "(" + expression + ")";
                const json* out = argument(*call, output->name);
                if (out && !text(e, "dtype").empty() && text(e, "dtype") != text(*out, "dtype"))
                    found += castToOutputDtype(output->name, text(*out, "dtype"));
                // Compared in another shape with as many elements (a reshape of the output that
                // a wrapper returns): the output's shape rule, over the same input names, gives
                // it back; an input the kernel updates keeps its own shape.
                if (out && member(e, "shape").is_array() &&
                    member(e, "shape") != member(*out, "shape") &&
                    elementCount(shapeOf(e)) == elementCount(shapeOf(*out))) {
                    const auto rule = m_outputShapeRules.find(output->name);
                    found += ".reshape(" +
                             (rule != m_outputShapeRules.end() ? rule->second
                                                               : output->name + ".shape") +
                             ")";
                }
                line = line ? line : number(e, "line", 1);
                literal = literal || member(e, "literal") == true;
                break;
            }
        if (found.empty()) {
            unexpressed = output->name;
            return false;
        }
        parts.push_back(found);
    }
    if (parts.empty()) return false;
    std::string ret, updates;
    for (std::size_t k = 0; k < outputs.size(); ++k)
        ret += (k ? ", " : "") + parts[k];
    for (std::size_t k = outputs.size(); k < results.size(); ++k)
        updates += "    " + results[k]->name + ".copy_(" + parts[k] + ")\n";
    // The outputs are computed before an update changes an input they read.
    const std::string body = updates.empty() ? "    return " + ret + "\n"
                             : ret.empty()
                                 ? updates + "    return None\n"
                                 : "    results = " + ret + "\n" + updates + "    return results\n";
    const std::string where =
        std::filesystem::path(m_kernelFile).filename().string() + " line " + std::to_string(line);
    m_p.reference = imports + head +
                    (literal ? "    # Gives the literal value " + where +
                                   " compares the output with; found by trying the torch "
                                   "functions the kernel's name and ops name.\n"
                             : "    # What " + where + " compares the output with.\n") +
                    body;
    m_p.referenceFromGolden = true;
    m_p.inferred.push_back(
        (literal ? "reference: a torch call that gives the literal value the file's test "
                   "compares with (line "
                 : "reference: the expression the file's test compares with (line ") +
        std::to_string(line) + ")");
    return true;
}

} // namespace ptowb::importer
