#include "commands.h"
#include "diag/suggest.h"
#include "project/project.h"
#include "spec/command_line_values.h"
#include "spec/inference.h"

#include <nlohmann/json.hpp>
#include <ostream>

namespace ptowb::cli {

int runInfer(const CommandLine& cmd, std::ostream& out, std::ostream& err)
{
    auto project = openProjectArgument(
        cmd, "ptowb-cli infer <project> --input NAME=SHAPE[:DTYPE]... [--param NAME=VALUE]...",
        err);
    if (!project) return kUsageError;
    const SpecLoadResult loaded = project->validateSaved();
    if (!loaded.usable()) {
        for (const Diagnostic& d : loaded.diagnostics)
            if (d.isError()) err << formatDiagnostic(d) << '\n';
        return kFailure;
    }
    const OpSpec& spec = loaded.spec;

    std::vector<std::optional<rules::TensorInfo>> given(spec.inputs.size());
    std::vector<std::string> inputNames;
    for (const auto& in : spec.inputs)
        inputNames.push_back(in.name);
    for (const std::string& text : cmd.values("input")) {
        auto parsed = parseTensorArgument(text);
        if (auto* why = std::get_if<std::string>(&parsed)) {
            err << "ptowb-cli: --input " << text << ": " << *why << '\n';
            return kUsageError;
        }
        const auto& arg = std::get<TensorArgument>(parsed);
        const int index = spec.inputIndex(arg.name);
        if (index < 0) {
            err << "ptowb-cli: the op has no input '" << arg.name << "'"
                << didYouMean(arg.name, inputNames) << " (inputs: " << joinQuoted(inputNames)
                << ")\n";
            return kUsageError;
        }
        given[std::size_t(index)] = rules::TensorInfo{
            arg.shape, arg.dtype.value_or(spec.inputs[std::size_t(index)].dtypes.front())};
    }
    std::vector<rules::TensorInfo> inputs;
    for (std::size_t k = 0; k < given.size(); ++k) {
        if (!given[k]) {
            err << "ptowb-cli: missing --input " << spec.inputs[k].name << "=SHAPE[:DTYPE]\n";
            return kUsageError;
        }
        inputs.push_back(*given[k]);
    }

    std::map<std::string, rules::Value> params;
    for (const std::string& text : cmd.values("param")) {
        auto parsed = parseParamArgument(text);
        if (auto* why = std::get_if<std::string>(&parsed)) {
            err << "ptowb-cli: --param " << text << ": " << *why << '\n';
            return kUsageError;
        }
        const auto& arg = std::get<ParamArgument>(parsed);
        const int index = spec.paramIndex(arg.name);
        if (index < 0) {
            params[arg.name] =
                rules::Value::ofStr(arg.literal); // resolveParams reports the unknown name
            continue;
        }
        auto value = paramValueFromLiteral(arg.literal, spec.params[std::size_t(index)].type);
        if (auto* why = std::get_if<std::string>(&value)) {
            err << "ptowb-cli: --param " << text << ": " << *why << '\n';
            return kUsageError;
        }
        params[arg.name] = std::get<rules::Value>(value);
    }
    auto resolved = resolveParams(spec, params);
    if (auto* e = std::get_if<InferenceError>(&resolved)) {
        err << "ptowb-cli: " << e->message << '\n';
        return kUsageError;
    }

    auto result = inferOutputs(spec, inputs, std::get<std::vector<rules::Value>>(resolved));
    if (auto* e = std::get_if<InferenceError>(&result)) {
        err << "error: " << e->message << '\n';
        return kFailure;
    }
    nlohmann::ordered_json outputs = nlohmann::ordered_json::array();
    for (const InferredOutput& o : std::get<std::vector<InferredOutput>>(result))
        outputs.push_back(
            {{"name", o.name}, {"shape", o.shape}, {"dtype", std::string(dtypeName(o.dtype))}});
    out << nlohmann::ordered_json{{"outputs", outputs}}.dump() << '\n';
    return kSuccess;
}

} // namespace ptowb::cli
