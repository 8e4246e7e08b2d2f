#include "worker/reference_case.h"

#include "reference/reference_program.h"
#include "run_folder/run_folder.h"
#include "spec/inference.h"
#include "spec/op_spec_loader.h"
#include "tensor/npy.h"

#include <memory>

namespace ptowb::worker {

namespace {

using nlohmann::json;

json failed(std::string message, std::string code)
{
    return {{"status", "error"}, {"message", std::move(message)}, {"code", std::move(code)}};
}

// The last description and reference compiled: the cases of one run share them.
struct Loaded
{
    std::string key;
    SpecLoadResult spec;
    std::shared_ptr<const ReferenceProgram> program;
    std::string error;
};

const Loaded& load(const json& request)
{
    static Loaded loaded;
    const std::string opJson = request.at("op_json").get<std::string>();
    const std::string source = request.at("reference_source").get<std::string>();
    const std::string key = opJson + '\0' + source;
    if (loaded.program && loaded.key == key) return loaded;
    loaded = Loaded{key,
                    loadOpSpecText(opJson, request.value("op_json_file", "op.json"),
                                   request.value("project_dir", "")),
                    nullptr,
                    {}};
    if (!loaded.spec.usable()) {
        loaded.error = "op.json has errors";
        return loaded;
    }
    auto program = ReferenceProgram::load(loaded.spec.spec, source,
                                          request.value("reference_file", "reference.py"));
    loaded.program = program.program;
    if (!loaded.program) loaded.error = "the reference does not compile";
    return loaded;
}

} // namespace

std::variant<Tensor, std::string> readCaseInput(const json& request, const std::string& name)
{
    const std::string path = runfolder::inputPath(request.at("case_dir").get<std::string>(), name);
    const json shapes = request.value("input_shapes", json::object());
    if (!shapes.is_object() || !shapes.contains(name)) return readNpy(path);
    const json& expected = shapes.at(name);
    const auto dtype = dtypeFromName(expected.at("dtype").get<std::string>());
    if (!dtype) return path + ": unknown input dtype " + expected.at("dtype").dump();
    return readNpy(
        path, {*dtype, expected.at("shape").get<std::vector<std::int64_t>>(), "the case says"});
}

json runReferenceCase(const json& request)
{
    const Loaded& loaded = load(request);
    if (!loaded.program) return failed(loaded.error, "ref.load");
    const OpSpec& spec = loaded.spec.spec;
    const std::string caseDir = request.at("case_dir").get<std::string>();

    std::vector<Tensor> inputs;
    for (const auto& input : spec.inputs) {
        auto read = readCaseInput(request, input.name);
        if (auto* e = std::get_if<std::string>(&read)) return failed(*e, "ref.inputs");
        inputs.push_back(std::move(std::get<Tensor>(read)));
    }
    std::vector<rules::Value> params;
    const json given = request.value("params", json::object());
    for (const auto& p : spec.params) {
        if (!given.contains(p.name))
            return failed("parameter '" + p.name + "' is missing", "ref.inputs");
        auto value = paramValueFromJson(given.at(p.name), p.type);
        if (auto* e = std::get_if<std::string>(&value))
            return failed("parameter '" + p.name + "': " + *e, "ref.inputs");
        params.push_back(std::get<rules::Value>(value));
    }

    auto result = loaded.program->run(inputs, params);
    if (auto* e = std::get_if<std::string>(&result)) return failed(*e, "ref.error");
    const std::vector<Tensor>& outputs = std::get<std::vector<Tensor>>(result);
    const json expected = request.value("outputs", json::array());
    for (std::size_t k = 0; k < outputs.size() && k < expected.size(); ++k) {
        InferredOutput rule;
        rule.name = expected[k].at("name").get<std::string>();
        rule.shape = expected[k].at("shape").get<std::vector<std::int64_t>>();
        const auto dtype = dtypeFromName(expected[k].at("dtype").get<std::string>());
        if (!dtype)
            return failed("unknown output dtype " + expected[k].at("dtype").dump(), "ref.inputs");
        rule.dtype = *dtype;
        if (const std::string mismatch = runfolder::mismatchWithRules(outputs[k], rule);
            !mismatch.empty())
            return {{"status", "error"},
                    {"code", "ref.output"},
                    {"line", loaded.program->returnLine()},
                    {"output", k}, // which rule of op.json disagrees, for a diagnostic there
                    {"rule", outputs[k].shape() == rule.shape ? "dtype" : "shape"},
                    {"message", "the reference returns '" + rule.name + "' as " + mismatch}};
    }
    if (std::string e = runfolder::writeOutputs(caseDir, spec, outputs); !e.empty())
        return failed(e, "ref.io");
    return {{"status", "ok"}};
}

} // namespace ptowb::worker
