#pragma once

// The proposal's builder, shared by its two halves: import_proposal.cpp makes op.json (inputs,
// outputs, parameters, arguments, tolerance, cases) and reference_proposal.cpp writes
// reference.py. Internal to core/importer.
#include "importer/import_proposal.h"
#include "importer/shape_rules.h"

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace ptowb::importer {

// What one kernel parameter becomes in the op.
enum class Role
{
    Input,
    Mutated,
    Output,
    Parameter,
    Argument, // a rule in kernel.arguments (a dim, a dtype)
    Config,   // a dataclass in kernel.arguments
    Default,  // left to the kernel's default
    Unknown
};

struct Plan
{
    std::string name;
    Role role = Role::Unknown;
    std::string type;                          // a parameter's op.json type
    std::string rule;                          // an argument's rule
    nlohmann::json signature;                  // the kernel's parameter
    std::vector<const nlohmann::json*> values; // per kept call, null where the call did not pass it
};

class Builder
{
public:
    Builder(const nlohmann::json& recording, const std::string& kernelFile,
            ReferenceCheck checkReference)
        : m_recording(recording), m_kernelFile(kernelFile),
          m_checkReference(std::move(checkReference))
    {
    }

    Proposal run(const std::string& function, const std::string& name);

private:
    bool chooseKernel(const std::string& function);
    void keepCalls();
    // The recording's entry of the kernel whose calls become the cases: this one, or, when no
    // code called it, a kernel of the file with the same parameters that was called (see
    // keepCalls).
    const nlohmann::json& calledKernel() const;
    std::string otherConfiguration(const nlohmann::json& call, const nlohmann::json& first) const;
    // Leaves out the kept calls whose config gives an int or dtype field another value than the
    // first call's where no rule over the inputs gives every call's value; true when it did (the
    // plans are then made again from the calls kept).
    bool leaveOutUnruledFields();
    void leaveOut(const nlohmann::json& call, const std::string& why);
    void warnIfFinerThanTheDtype(const std::string& dtype, double rtol, double atol);
    // The calls left out as run in another configuration, and the kept calls that failed.
    void reportKeptCalls();
    void classify();
    std::vector<RecordedCall> recordedCalls() const;
    void describeInputsAndParameters(nlohmann::ordered_json& op);
    void describeOutputs(nlohmann::ordered_json& op);
    void describeArguments(nlohmann::ordered_json& op);
    void describeMadeWith(nlohmann::ordered_json& op);
    void describeTolerance(nlohmann::ordered_json& op);
    void describeCases(nlohmann::ordered_json& op);
    void writeReference(const std::string& opName);
    // reference.py as a TODO that says `why`, with the golden proposed from the file below it.
    void rejectGolden(const std::string& why);
    bool describeExpectedValues(nlohmann::ordered_json& op);
    // False when some result has no expression; `unexpressed` names it.
    bool writeExpressionReference(const std::string& imports, const std::string& head,
                                  const std::vector<const Plan*>& outputs,
                                  std::string& unexpressed);
    void fillIn(std::string pointer, Severity severity, std::string code, std::string message)
    {
        m_p.fillIns.push_back({std::move(pointer), severity, std::move(code), std::move(message)});
    }
    std::vector<const Plan*> plans(Role role) const
    {
        std::vector<const Plan*> out;
        for (const auto& p : m_plans)
            if (p.role == role) out.push_back(&p);
        return out;
    }
    std::vector<const Plan*> tensorInputs() const
    {
        std::vector<const Plan*> out;
        for (const auto& p : m_plans)
            if (p.role == Role::Input || p.role == Role::Mutated) out.push_back(&p);
        return out;
    }

    const nlohmann::json& m_recording;
    std::string m_kernelFile;
    ReferenceCheck m_checkReference;
    Proposal m_p;
    const nlohmann::json* m_kernel = nullptr;
    std::vector<std::pair<int, const nlohmann::json*>> m_calls; // recording index, call
    std::vector<Plan> m_plans;
    std::vector<std::string> m_caseNames;
    int m_otherConfigurations = 0; // calls left out as run in another configuration
    std::string m_firstOther;      // the first of them and why
    // Outputs whose shape or dtype no rule gave: op.json holds the first call's.
    std::map<std::string, std::vector<std::int64_t>> m_firstCallShapes;
    std::map<std::string, std::string> m_firstCallDtypes;
    // Each output's dtype rule as op.json has it ("x.dtype", "float32").
    std::map<std::string, std::string> m_outputDtypeRules;
    std::map<std::string, std::string> m_outputShapeRules;
    // The cast reference.py applies to give `output` its dtype: by its rule, else to `recorded`.
    std::string castToOutputDtype(const std::string& output, const std::string& recorded) const;
    // The inputs the kernel updates in place that a kept call's test compares: the reference
    // must write them too.
    std::vector<const Plan*> comparedUpdates() const;
};

} // namespace ptowb::importer
