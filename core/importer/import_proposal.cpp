#include "importer/import_proposal.h"

#include "importer/import_builder.h"
#include "importer/recording_json.h"
#include "importer/shape_rules.h"
#include "project/new_project.h"
#include "spec/identifiers.h"
#include "spec/source_check.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <set>

namespace ptowb::importer {

namespace {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

constexpr std::size_t kMaxCases = 6;

bool parameterKind(const std::string& kind)
{
    return kind == "int" || kind == "float" || kind == "bool" || kind == "str" || kind == "int[]" ||
           kind == "float[]";
}

bool looksLikeOutput(const std::string& name)
{
    for (const char* word : {"out", "output", "y", "res", "result", "dst", "z"})
        if (name == word) return true;
    return name.rfind("out_", 0) == 0 || name.rfind("output_", 0) == 0 ||
           (name.size() > 4 && name.compare(name.size() - 4, 4, "_out") == 0);
}

// Whether a recorded tensor fits a parameter's annotation: its dtype, and its rank and fixed
// sizes where the annotation gives them.
bool fitsAnnotation(const json& annotation, const json& arg)
{
    if (!annotation.is_object()) return true;
    if (text(arg, "kind") != "tensor") return false;
    if (member(annotation, "dtype").is_string() && text(annotation, "dtype") != text(arg, "dtype"))
        return false;
    const json& dims = member(annotation, "dims");
    if (!dims.is_array()) return true;
    const json& shape = list(arg, "shape");
    if (dims.size() != shape.size()) return false;
    for (std::size_t d = 0; d < dims.size(); ++d)
        if (dims[d].is_number_integer() && dims[d] != shape[d]) return false;
    return true;
}

// Whether `variant` takes the same parameters as `twin`, by name and kind, and every recorded
// call of `twin` is a call `variant`'s annotations accept: a prefill variant that annotates the
// dtypes its decode twin leaves open (mla_prolog_quant_p beside _d) is one.
bool takesCallsOf(const json& variant, const json& twin, const json& calls)
{
    const json& mine = list(variant, "params");
    const json& theirs = list(twin, "params");
    if (mine.size() != theirs.size()) return false;
    for (std::size_t k = 0; k < mine.size(); ++k)
        if (text(mine[k], "name") != text(theirs[k], "name") ||
            member(mine[k], "variadic") != member(theirs[k], "variadic") ||
            member(mine[k], "annotation").is_object() !=
                member(theirs[k], "annotation").is_object())
            return false;
    for (const auto& c : calls) {
        if (text(c, "kernel") != text(twin, "name") || member(c, "error").is_object()) continue;
        for (const auto& p : mine)
            if (const json* arg = argument(c, text(p, "name"));
                arg && !fitsAnnotation(member(p, "annotation"), *arg))
                return false;
    }
    return true;
}

} // namespace

bool Builder::chooseKernel(const std::string& function)
{
    std::vector<const json*> kernels;
    std::vector<std::string> names;
    for (const auto& k : list(m_recording, "kernels"))
        if (!text(k, "name").empty() && !member(k, "twin_only").is_boolean()) {
            kernels.push_back(&k);
            names.push_back(text(k, "name"));
        }
    if (kernels.empty()) {
        for (const auto& c : list(m_recording, "calls"))
            if (member(c, "module_level") == false) {
                // Built inside a function that no function of this file runs: from a test in
                // another file, say, or with arguments nothing gives.
                m_p.error = "the kernel '" + text(c, "kernel") +
                            "' is built inside a function that this file's own code does not "
                            "run: call it from a test or main() of this file (op.json's "
                            "kernel.made_by names that function)";
                m_p.errorLine = number(c, "line", 1);
                return false;
            }
        m_p.error = "the file defines no @pypto.frontend.jit kernel";
        return false;
    }
    std::string joined;
    for (const auto& n : names)
        joined += (joined.empty() ? "" : ", ") + n;
    if (function.empty() && kernels.size() > 1) {
        m_p.error = "the file has " + std::to_string(kernels.size()) + " jit kernels (" + joined +
                    "): name the one to import";
        return false;
    }
    for (const json* k : kernels)
        if (function.empty() || text(*k, "name") == function) {
            m_kernel = k;
            m_p.kernel = text(*k, "name");
            return true;
        }
    m_p.error = "the file has no jit kernel named '" + function + "' (it has " + joined + ")";
    return false;
}

const json& Builder::calledKernel() const
{
    const json& calls = list(m_recording, "calls");
    auto called = [&](const std::string& name) {
        return std::any_of(calls.begin(), calls.end(), [&](const json& c) {
            return text(c, "kernel") == name && !member(c, "error").is_object();
        });
    };
    // A kernel a function made takes no twin's calls once any call of it was recorded: the
    // calls of another kernel that function made are no calls of it.
    const bool madeAndCalled = !text(*m_kernel, "made_by").empty() &&
                               std::any_of(calls.begin(), calls.end(), [&](const json& c) {
                                   return text(c, "kernel") == m_p.kernel;
                               });
    if (called(m_p.kernel) || madeAndCalled || list(*m_kernel, "params").empty()) return *m_kernel;
    // A platform or size variant that a wrapper picks and the tests never reach (glm's
    // ifa_func_kernel_for_950 beside ifa_func_kernel, kimi's ..._l_max_96 beside _l_max_32): the
    // same parameters as a kernel that was called, whose calls its annotations accept; a test's
    // copy of a kernel a factory makes (test_sum_lstm's sum_lstm_kernel_sim) too. A twin
    // with the very same signature comes first.
    const json* twin = nullptr;
    for (const auto& k : list(m_recording, "kernels"))
        if (&k != m_kernel && text(k, "made_by").empty() && called(text(k, "name")) &&
            takesCallsOf(*m_kernel, k, calls)) {
            if (member(k, "params") == member(*m_kernel, "params")) return k;
            if (!twin) twin = &k;
        }
    return twin ? *twin : *m_kernel;
}

void Builder::keepCalls()
{
    const json& calls = list(m_recording, "calls");
    // The kernel whose calls are the cases: made_by and made_with pick its calls among those of
    // the kernels of that name.
    const json& called = calledKernel();
    const std::string kernel = text(called, "name");
    if (&called != m_kernel)
        fillIn("/cases", Severity::Warning, "import.variant-calls",
               "no code of the file or its tests called " + m_p.kernel +
                   "; its cases are the calls of " + kernel +
                   ", which takes the same parameters (a variant of it): verify shows whether " +
                   m_p.kernel + " computes on them what the test expected of " + kernel);
    int madeAgain = 0, rejected = 0;
    std::string firstRejected;
    for (int pass = 0; pass < 2; ++pass) // calls the simulator ran first, failed ones after
        for (std::size_t k = 0; k < calls.size() && m_calls.size() < kMaxCases; ++k) {
            const json& c = calls[k];
            // A kernel made inside a function: only the calls of the one made_by builds (a
            // test's other pytest cases build kernels of their own), and of the first kernel it
            // calls, which is the one made_by gives again.
            if (text(c, "kernel") != kernel || text(c, "made_by") != text(called, "made_by") ||
                member(c, "made_with") != member(called, "made_with"))
                continue;
            // A repeat of a call with the same shapes and values: the one its test compared
            // is kept (the recorder marks the others).
            if (member(c, "repeat").is_boolean() && member(c, "repeat").get<bool>()) continue;
            // Stopped part-way when import's time was up: its outputs may not all be written.
            if (member(c, "stopped").is_boolean() && member(c, "stopped").get<bool>()) continue;
            if (number(c, "made_again", 0) != 0) {
                madeAgain += pass == 0;
                continue;
            }
            if ((pass == 0) == member(c, "error").is_object()) continue;
            // Arguments the kernel's annotations reject (a batch of 2 for a fixed batch of 1)
            // fail before its body runs, in PyPTO too: no case, while other calls ran.
            if (const json& error = member(c, "error"); !m_calls.empty() &&
                                                        member(error, "rejected").is_boolean() &&
                                                        member(error, "rejected").get<bool>()) {
                if (rejected++ == 0)
                    firstRejected = text(c, "entry") + ": " + text(error, "message");
                continue;
            }
            if (!m_calls.empty()) {
                if (std::string other = otherConfiguration(c, *m_calls.front().second);
                    !other.empty()) {
                    leaveOut(c, other);
                    continue;
                }
            }
            m_calls.emplace_back(int(k), &c);
        }
    if (rejected > 0)
        fillIn("/cases", Severity::Warning, "import.rejected-calls",
               std::to_string(rejected) +
                   " recorded call(s) pass arguments the kernel's annotations reject and are left "
                   "out (the first, from " +
                   firstRejected + ")");
    if (madeAgain > 0)
        fillIn("/cases", Severity::Warning, "import.made-again",
               std::to_string(madeAgain) + " call(s) of a kernel " + text(*m_kernel, "made_by") +
                   " built again (with other arguments or shapes) are left out: made_by gives "
                   "the first kernel it calls");
}

void Builder::classify()
{
    for (const auto& param : list(*m_kernel, "params")) {
        Plan plan{text(param, "name"), Role::Unknown, "", "", param, {}};
        for (const auto& [index, call] : m_calls)
            plan.values.push_back(argument(*call, plan.name));
        const json* first = nullptr;
        for (auto* v : plan.values)
            if (v && !first) first = v;
        const bool hasDefault = member(param, "default").is_object() || param.contains("default");
        const std::string kind = first ? text(*first, "kind") : "";
        if (member(param, "variadic") == true) {
            plan.role = Role::Unknown;
            fillIn("/kernel", Severity::Error, "import.variadic",
                   "the kernel's *" + plan.name + " cannot bind to op.json's inputs by name");
        } else if (!first) {
            if (hasDefault)
                plan.role = Role::Default;
            else if (m_calls.empty() && member(param, "annotation").is_object())
                plan.role = looksLikeOutput(plan.name) ? Role::Output : Role::Input;
            else
                plan.role = Role::Unknown;
        } else if (kind == "tensor") {
            // Written over whatever it held (checked by a second run with other contents): an
            // output, though the file filled it first.
            bool written = false, overwritten = false, updated = false;
            for (auto* v : plan.values) {
                written = written || (v && member(*v, "written") == true);
                overwritten = overwritten || (v && member(*v, "overwritten") == true);
                updated = updated || (v && member(*v, "overwritten") == false);
            }
            const std::string fill = text(*first, "fill");
            // A tensor named like an output counts as one only when no second run told: one
            // whose result changed with its contents (`cache_out = cache.clone()`, updated by
            // index_put_) is an input the kernel updates, whatever its name.
            if (fill == "empty" || (fill == "zeros" && written) || (overwritten && !updated) ||
                (written && fill.empty() && !updated && looksLikeOutput(plan.name)))
                plan.role = Role::Output;
            else
                plan.role = written ? Role::Mutated : Role::Input;
        } else if (kind == "config")
            plan.role = Role::Config;
        else if (kind == "dtype" || kind == "literal")
            plan.role = Role::Argument;
        else if (parameterKind(kind)) {
            plan.role = Role::Parameter;
            plan.type = kind;
        } else
            plan.role = hasDefault ? Role::Default : Role::Unknown;
        if (plan.role == Role::Unknown && member(param, "variadic") != true)
            fillIn("/kernel", hasDefault ? Severity::Warning : Severity::Error, "import.argument",
                   "kernel parameter '" + plan.name + "'" +
                       (!first && m_calls.empty()
                            ? " has no value, as no call of the kernel was recorded: bind it in "
                              "kernel.arguments or give it a default"
                        : !first ? " was never passed in a recorded call: bind it in "
                                   "kernel.arguments or give it a default"
                        : text(*first, "kind") == "enum"
                            ? " takes the enum member " + text(*first, "value") +
                                  ", which op.json cannot describe: make it the parameter's "
                                  "default"
                            : " takes a " + text(*first, "type") +
                                  " value, which op.json cannot describe: bind it in "
                                  "kernel.arguments or give it a default"));
        m_plans.push_back(std::move(plan));
    }
}

std::vector<RecordedCall> Builder::recordedCalls() const
{
    std::vector<RecordedCall> calls(m_calls.size());
    for (std::size_t k = 0; k < m_calls.size(); ++k) {
        for (const Plan* p : tensorInputs())
            if (const json* v = p->values[k])
                calls[k].inputs.push_back({p->name, shapeOf(*v), text(*v, "dtype")});
        for (const Plan* p : plans(Role::Parameter))
            if (const json* v = p->values[k];
                v && p->type == "int" && member(*v, "value").is_number_integer())
                calls[k].ints[p->name] = member(*v, "value").get<std::int64_t>();
    }
    return calls;
}

void Builder::describeInputsAndParameters(ojson& op)
{
    op["inputs"] = ojson::array();
    for (const Plan* p : tensorInputs()) {
        ojson input{{"name", p->name}};
        std::vector<std::string> dtypes;
        std::set<std::size_t> ranks;
        for (const json* v : p->values)
            if (v) {
                if (std::find(dtypes.begin(), dtypes.end(), text(*v, "dtype")) == dtypes.end())
                    dtypes.push_back(text(*v, "dtype"));
                ranks.insert(list(*v, "shape").size());
            }
        const json& annotation = member(p->signature, "annotation");
        if (dtypes.empty() && member(annotation, "dtype").is_string())
            dtypes.push_back(text(annotation, "dtype"));
        if (ranks.empty() && member(annotation, "dims").is_array())
            ranks.insert(member(annotation, "dims").size());
        if (!dtypes.empty())
            input["dtypes"] = dtypes;
        else
            fillIn(
                "/inputs/" + std::to_string(op["inputs"].size()), Severity::Error, "import.dtypes",
                "input '" + p->name + "': no call or annotation says its dtypes: add \"dtypes\"");
        if (ranks.size() == 1) input["rank"] = *ranks.begin();
        if (p->role == Role::Mutated) input["mutated"] = true;
        op["inputs"].push_back(input);
    }
    op["parameters"] = ojson::array();
    for (const Plan* p : plans(Role::Parameter)) {
        ojson param{{"name", p->name}, {"type", p->type}};
        const json& def = member(p->signature, "default");
        if (def.is_object() && text(def, "kind") == p->type)
            param["default"] = member(def, "value");
        op["parameters"].push_back(param);
    }
    if (op["parameters"].empty()) op.erase("parameters");
}

void Builder::describeOutputs(ojson& op)
{
    const auto calls = recordedCalls();
    op["outputs"] = ojson::array();
    for (const Plan* p : plans(Role::Output)) {
        const std::string pointer = "/outputs/" + std::to_string(op["outputs"].size());
        std::vector<std::vector<std::int64_t>> shapes;
        std::vector<std::string> dtypes;
        std::vector<RecordedCall> seen;
        for (std::size_t k = 0; k < calls.size(); ++k)
            if (const json* v = p->values[k]) {
                shapes.push_back(shapeOf(*v));
                dtypes.push_back(text(*v, "dtype"));
                seen.push_back(calls[k]);
            }
        ojson output{{"name", p->name}};
        if (auto rule = inferShapeRule(seen, shapes))
            output["shape"] = *rule;
        else {
            std::string first = "[";
            if (!shapes.empty())
                for (std::size_t d = 0; d < shapes[0].size(); ++d)
                    first += (d ? ", " : "") + std::to_string(shapes[0][d]);
            output["shape"] = first + "]";
            if (!shapes.empty()) m_firstCallShapes[p->name] = shapes[0];
            fillIn(pointer + "/shape", Severity::Warning, "import.output-rule",
                   shapes.empty()
                       ? "output '" + p->name + "': no call was recorded: write its shape rule"
                       : "output '" + p->name +
                             "': no rule over the inputs reproduces every "
                             "recorded shape; this is the first call's: write the rule");
        }
        if (auto rule = inferDtypeRule(seen, dtypes))
            output["dtype"] = *rule;
        else {
            output["dtype"] = dtypes.empty() ? "float32" : dtypes.front();
            m_firstCallDtypes[p->name] = output["dtype"].get<std::string>();
            fillIn(pointer + "/dtype", Severity::Warning, "import.output-rule",
                   "output '" + p->name +
                       "': its dtype follows no input in every recorded call: "
                       "write the dtype rule");
        }
        m_outputDtypeRules[p->name] = output["dtype"].get<std::string>();
        m_outputShapeRules[p->name] = output["shape"].get<std::string>();
        // The test's torch.zeros buffer, part of which the kernel leaves as it was (a padded
        // result): the case starts it at zero too, not at NaN.
        for (std::size_t k = 0; k < calls.size(); ++k)
            if (const json* v = p->values[k]; v && member(*v, "keeps_zeros") == true)
                output["init"] = 0;
        m_p.inferred.push_back("output " + p->name + ": shape " +
                               output["shape"].get<std::string>() + ", dtype " +
                               output["dtype"].get<std::string>() +
                               (output.contains("init") ? ", starting at zero" : ""));
        op["outputs"].push_back(output);
    }
    // A kernel that only updates inputs in place (a cache written by index_put_) is an op with
    // no output of its own: those inputs are its results.
    if (op["outputs"].empty() && plans(Role::Mutated).empty()) {
        // Calls that stopped before writing anything tell nothing of the outputs: say why.
        const bool allFailed =
            !m_calls.empty() && std::all_of(m_calls.begin(), m_calls.end(), [](const auto& c) {
                return member(*c.second, "error").is_object();
            });
        const std::string failure =
            allFailed ? text(member(*m_calls.front().second, "error"), "message") : "";
        fillIn("", Severity::Error, "import.no-output",
               allFailed ? "every recorded call failed in the simulator before it wrote a "
                           "kernel parameter (the first: " +
                               failure +
                               "), so import cannot tell the outputs: add them (kernel "
                               "parameters the kernel writes)"
                         : "no kernel parameter was written by a recorded call: add the op's "
                           "outputs (kernel parameters the kernel writes)");
    }
}

void Builder::describeCases(ojson& op)
{
    op["cases"] = ojson::array();
    std::set<std::string> used;
    for (std::size_t k = 0; k < m_calls.size(); ++k) {
        const json& call = *m_calls[k].second;
        // A case name names a folder: at most 64 characters, room left for a "_N" suffix.
        const std::string base =
            identifier(text(call, "entry") == "__main__" ? "main" : text(call, "entry"))
                .substr(0, 56);
        std::string name = base;
        for (int n = 2; used.count(name); ++n)
            name = base + "_" + std::to_string(n);
        used.insert(name);
        m_caseNames.push_back(name);
        ojson c{{"name", name}, {"inputs", ojson::object()}};
        for (const Plan* p : tensorInputs()) {
            const json* v = p->values[k];
            if (!v) continue;
            ojson input{{"shape", shapeOf(*v)}, {"dtype", text(*v, "dtype")}};
            const std::string fill = text(*v, "fill");
            if (fill == "normal(0, 1)" || fill == "uniform(0, 1)" || fill == "zeros" ||
                fill == "ones")
                input["fill"] = fill;
            else if (!text(*v, "file").empty()) {
                const std::string inProject = "cases/" + name + "/" + p->name + ".npy";
                m_p.files.push_back({text(*v, "file"), inProject});
                input["fill"] = "file:" + inProject;
            } else {
                input["fill"] = "normal(0, 1)";
                fillIn("/cases/" + std::to_string(op["cases"].size()) + "/inputs/" + p->name,
                       Severity::Warning, "import.case-input",
                       "input '" + p->name + "' of the call from " + text(call, "entry") +
                           " is too large to keep: a normal(0, 1) fill stands in for its values");
            }
            c["inputs"][p->name] = input;
        }
        ojson params = ojson::object();
        for (const Plan* p : plans(Role::Parameter))
            if (const json* v = p->values[k]) params[p->name] = member(*v, "value");
        if (!params.empty()) c["parameters"] = params;
        op["cases"].push_back(c);
    }
    if (m_calls.empty())
        fillIn("/cases", Severity::Error, "import.no-call",
               "running the file recorded no call of " + m_p.kernel + ": add a case (" +
                   (list(m_recording, "errors").empty()
                        ? "its __main__ block and test functions called it nowhere)"
                        : "the code that would call it stopped with an error first: see the "
                          "warnings at the file's lines)"));
}

Proposal Builder::run(const std::string& function, const std::string& requestedName)
{
    if (!chooseKernel(function)) return std::move(m_p);
    keepCalls();
    // The roles (which tensors a call writes) and their diagnostics from the calls kept.
    const std::size_t beforeClassify = m_p.fillIns.size();
    classify();
    while (leaveOutUnruledFields()) {
        m_p.fillIns.erase(m_p.fillIns.begin() + std::ptrdiff_t(beforeClassify), m_p.fillIns.end());
        m_plans.clear();
        classify();
    }
    reportKeptCalls();
    std::string opName = identifier(requestedName.empty() ? m_p.kernel : requestedName);
    if (requestedName.empty() && opName.size() > 7 &&
        opName.compare(opName.size() - 7, 7, "_kernel") == 0)
        opName.erase(opName.size() - 7);
    // `double_kernel` is no op `double`: the name reaches generated C++ and Python.
    if (isReservedWord(opName)) opName += "_op";
    // At the project's top, unless it imports from its package relatively: then at its path
    // below the package root, with the package's modules around it.
    std::string fileName = std::filesystem::path(m_kernelFile).filename().string();
    if (const std::string inPackage = text(m_recording, "kernel_path");
        !inPackage.empty() && checkRelativePath(inPackage).empty())
        fileName = std::filesystem::path(inPackage).lexically_normal().generic_string();
    ojson& op = m_p.op;
    op["format"] = "ptowb-op/1";
    op["name"] = opName;
    op["namespace"] = "pto";
    op["op_type"] = opTypeFor(opName);
    op["version"] = "1.0.0";
    op["doc"] = m_p.kernel + " of " + fileName + ", imported";
    op["kernel"] = ojson{{"file", fileName}, {"function", m_p.kernel}};
    if (const std::string madeBy = text(*m_kernel, "made_by"); !madeBy.empty())
        op["kernel"]["made_by"] = madeBy;
    describeMadeWith(op);
    op["reference"] = ojson{{"file", "reference.py"}, {"function", opName + "_reference"}};
    describeInputsAndParameters(op);
    describeOutputs(op);
    describeArguments(op);
    describeTolerance(op);
    describeCases(op);
    writeReference(opName);
    if (m_p.referenceFromGolden && m_checkReference)
        if (const std::string why = m_checkReference(op, m_p.reference); !why.empty())
            rejectGolden(why);
    if (!m_p.referenceFromGolden && describeExpectedValues(op))
        for (FillIn& f : m_p.fillIns)
            if (f.code == "import.reference") {
                f.severity = Severity::Warning;
                f.message += ". Until it is, verify compares each case with the values the file's "
                             "test expected; export and new cases need it";
            }
    m_p.files.insert(m_p.files.begin(), {m_kernelFile, fileName});
    // Modules the kernel file imports, each at the path its import name gives (kirin/common.py
    // for kirin.common), so that the same import finds it in the project.
    for (const auto& module : list(m_recording, "local_modules")) {
        const std::filesystem::path relative =
            std::filesystem::path(text(module, "path")).lexically_normal();
        if (!text(module, "file").empty() && !relative.empty() && relative.is_relative() &&
            *relative.begin() != "..")
            m_p.files.push_back({text(module, "file"), relative.string()});
    }
    std::string ins, params;
    for (const Plan* p : tensorInputs())
        ins += (ins.empty() ? "" : ", ") + p->name +
               (p->role == Role::Mutated ? " (written: mutated)" : "");
    for (const Plan* p : plans(Role::Parameter))
        params += (params.empty() ? "" : ", ") + p->name + ": " + p->type;
    // A kernel made inside a function may be defined in a module of the file's folder.
    const std::string definedIn = text(*m_kernel, "defined_in");
    std::string kernel =
        "kernel " + m_p.kernel + " (" +
        (definedIn.empty() ? "line " + std::to_string(number(*m_kernel, "line", 1))
                           : std::filesystem::path(definedIn).filename().string() + " line " +
                                 std::to_string(number(*m_kernel, "def_line", 1))) +
        ")";
    if (const std::string madeBy = text(*m_kernel, "made_by"); !madeBy.empty())
        kernel += ", made by " + madeBy;
    m_p.inferred.insert(m_p.inferred.begin(),
                        {kernel, "inputs: " + (ins.empty() ? std::string("none") : ins),
                         "parameters: " + (params.empty() ? std::string("none") : params),
                         std::to_string(m_calls.size()) + " case(s) from the file's own calls"});
    return std::move(m_p);
}

Proposal propose(const nlohmann::json& recording, const std::string& kernelFile,
                 const std::string& function, const std::string& name,
                 const ReferenceCheck& checkReference)
{
    return Builder(recording, kernelFile, checkReference).run(function, name);
}

std::vector<std::string> recordedKernels(const nlohmann::json& recording)
{
    std::vector<std::string> names;
    for (const auto& k : list(recording, "kernels"))
        names.push_back(text(k, "name"));
    return names;
}

} // namespace ptowb::importer
