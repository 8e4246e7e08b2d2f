#include "run/runner_config.h"

#include "run/config_files.h"
#include "run/placeholders.h"
#include "spec/identifiers.h"
#include "spec/spec_reader.h"

#include "json/json_document.h"
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ptowb {

namespace {

const std::vector<std::string> kBuiltInPlaceholders{"run_dir", "case",     "project", "op",
                                                    "kernel",  "function", "made_by", "made_with"};

void readRunner(SpecReader& r, const nlohmann::json& item, const std::string& ptr,
                const std::string& file, RunnerConfigs& out)
{
    if (!r.isType(item, ptr, nlohmann::json::value_t::object, "a runner object")) return;
    RunnerConfig runner;
    runner.sourceFile = file;
    bool ok = true;
    if (auto name = r.string(item, ptr, "name", true)) {
        if (!isConfigItemName(*name) || *name == "ref" || *name == "sim") {
            r.error(ptr + "/name", "runner.bad-name",
                    "runner name \"" + *name +
                        "\" must be letters, digits, '_', '.', '-' and not 'ref' or 'sim'");
            ok = false;
        }
        runner.name = *name;
    } else {
        ok = false;
    }
    if (auto kind = r.string(item, ptr, "kind", false)) runner.kind = *kind;
    if (auto timeout = r.number(item, ptr, "timeout_s", false, 0.1, 86400))
        runner.timeoutSeconds = *timeout;
    for (const auto& [key, value] : item.items()) {
        if (!value.is_string() || key == "name" || key == "kind") continue;
        // A field is a placeholder's value: {my-host} would never be one.
        if (placeholderNames("{" + key + "}") != std::vector<std::string>{key}) {
            r.error(SpecReader::child(ptr, key), "runner.bad-field",
                    "the field \"" + key +
                        "\" cannot be a placeholder: name fields with letters, digits and '_'");
            ok = false;
            continue;
        }
        runner.fields[key] = value.get<std::string>();
    }
    if (const auto* command = r.array(item, ptr, "command", true)) {
        if (command->empty()) {
            r.error(ptr + "/command", "runner.empty-command",
                    "the command needs at least the program to run");
            ok = false;
        }
        for (std::size_t k = 0; k < command->size(); ++k) {
            const std::string aptr = SpecReader::child(ptr + "/command", k);
            if (!r.isType((*command)[k], aptr, nlohmann::json::value_t::string, "a string")) {
                ok = false;
                continue;
            }
            const std::string arg = (*command)[k].get<std::string>();
            for (const std::string& key : placeholderNames(arg)) {
                const bool known =
                    std::find(kBuiltInPlaceholders.begin(), kBuiltInPlaceholders.end(), key) !=
                        kBuiltInPlaceholders.end() ||
                    runner.fields.count(key);
                if (!known) {
                    r.error(aptr, "runner.unknown-placeholder",
                            "unknown placeholder {" + key + "}; add a \"" + key +
                                "\" field to the runner or use one of " +
                                placeholderList(kBuiltInPlaceholders));
                    ok = false;
                }
            }
            runner.command.push_back(arg);
        }
    } else {
        ok = false;
    }
    if (!ok) return;
    // The user's own runner of a name wins: a project folder cannot swap the command behind it.
    for (const auto& existing : out.runners)
        if (existing.name == runner.name) {
            r.warning(ptr + "/name", "runner.shadowed",
                      "the runner \"" + runner.name + "\" is also defined in " +
                          existing.sourceFile + ", which wins: this one is ignored");
            return;
        }
    out.runners.push_back(std::move(runner));
}

} // namespace

const RunnerConfig* RunnerConfigs::find(const std::string& name) const
{
    for (const auto& r : runners)
        if (r.name == name) return &r;
    return nullptr;
}

std::vector<std::string> RunnerConfigs::names() const
{
    std::vector<std::string> out;
    for (const auto& r : runners)
        out.push_back(r.name);
    return out;
}

RunnerConfigs loadRunnerConfigs(const std::vector<std::string>& files)
{
    return loadConfigFiles<RunnerConfigs>(files, &loadRunnerConfigs);
}

RunnerConfigs loadRunnerConfigs(const std::vector<ConfigText>& texts)
{
    RunnerConfigs out;
    readJsonConfigItems(texts, out.diagnostics, "runners",
                        [&](SpecReader& r, const nlohmann::json& item, const std::string& ptr,
                            const std::string& file) { readRunner(r, item, ptr, file, out); });
    return out;
}

std::vector<std::string> expandCommand(const RunnerConfig& runner,
                                       const std::map<std::string, std::string>& values)
{
    std::map<std::string, std::string> all = runner.fields;
    for (const auto& [key, value] : values)
        all[key] = value; // the built-in values win over a field of the same name
    std::vector<std::string> argv;
    for (const std::string& arg : runner.command)
        argv.push_back(expandPlaceholders(arg, all));
    return argv;
}

} // namespace ptowb
