#include "run/tolerance_defaults.h"

#include "spec/op_spec_loader.h"
#include "spec/spec_reader.h"
#include "types/dtype.h"

#include <nlohmann/json.hpp>

namespace ptowb {

ToleranceDefaults loadToleranceDefaults(const std::vector<std::string>& files)
{
    return loadConfigFiles<ToleranceDefaults>(files, &loadToleranceDefaults);
}

ToleranceDefaults loadToleranceDefaults(const std::vector<ConfigText>& texts)
{
    ToleranceDefaults out;
    readJsonConfigFiles(
        texts, out.diagnostics, [&](SpecReader& r, const nlohmann::json& root, const std::string&) {
            if (!r.isType(root, "", nlohmann::json::value_t::object,
                          "a tolerance object like op.json's \"tolerance\""))
                return;
            ToleranceSpec file;
            readToleranceObject(r, root, "", file);
            out.tolerance = withDefaults(file, out.tolerance); // a later file (the project's) wins
        });
    return out;
}

ToleranceSpec withDefaults(const ToleranceSpec& own, const ToleranceSpec& defaults)
{
    ToleranceSpec merged = defaults;
    for (const auto& [dtype, bounds] : own.perDType)
        merged.perDType[dtype] = bounds;
    if (!own.criteria.empty()) merged.criteria = own.criteria;
    if (own.maxErrorRatio) merged.maxErrorRatio = own.maxErrorRatio;
    if (own.minCosine) merged.minCosine = own.minCosine;
    return merged;
}

std::string toleranceJson(const ToleranceSpec& tolerance)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const auto& info : allDTypes())
        if (auto it = tolerance.perDType.find(info.dtype); it != tolerance.perDType.end())
            out[std::string(info.name)] = {{"rtol", it->second.rtol}, {"atol", it->second.atol}};
    if (!tolerance.criteria.empty()) out["criteria"] = tolerance.criteria;
    if (tolerance.maxErrorRatio) out["max_error_ratio"] = *tolerance.maxErrorRatio;
    if (tolerance.minCosine) out["min_cosine"] = *tolerance.minCosine;
    return out.dump(2) + "\n";
}

} // namespace ptowb
