#pragma once

// For generated op libraries (PTOWB_BACKEND=sim): runs the op's kernel file on libtorch tensors
// through the kernel worker (worker_client/worker_client.h), the same simulator as the workbench.
// Includes libtorch: only for core .cpp files and generated op code.
#include <map>
#include <string>
#include <torch/torch.h>
#include <vector>

namespace ptowb::sim {

// JSON text of a value, as the kernel worker reads parameters and kernel arguments.
std::string jsonText(bool value);
std::string jsonText(std::int64_t value);
std::string jsonText(double value);
std::string jsonText(const std::string& value);
std::string jsonText(const std::vector<std::int64_t>& value);
std::string jsonText(const std::vector<double>& value);
std::string dtypeJsonText(const std::string& dtypeName); // {"dtype": name}

// One of op.json's kernel arguments: a value, or an instance of a class of the kernel file.
struct KernelArgument
{
    std::string valueJson; // without a class
    std::string className; // with one: built from fieldsJson
    std::map<std::string, std::string> fieldsJson;
};

// One kernel call, bound by name: inputs, outputs (allocated by the caller and written in
// place), the op's parameters and op.json's kernel arguments.
struct KernelArguments
{
    std::map<std::string, at::Tensor> inputs;
    std::map<std::string, at::Tensor> outputs;
    std::map<std::string, std::string> paramsJson; // each parameter's value as JSON text
    std::map<std::string, KernelArgument> kernelArguments;
    // Inputs the kernel writes in place: read back into `inputs` after the call.
    std::vector<std::string> mutated;
    // op.json's kernel.made_by: the function of the kernel file that builds the kernel.
    std::string madeBy;
    // op.json's kernel.made_with: that function's arguments, as JSON object text (empty: none).
    std::string madeWithJson;
    // The project's modules the kernel file imports: each one's path in the project (as the
    // kernel file's own path is) and its text. The kernel runs among them, so its imports work
    // wherever the library runs.
    std::vector<std::pair<std::string, std::string>> modules;

    void param(const std::string& name, bool value) { paramsJson[name] = jsonText(value); }
    void param(const std::string& name, std::int64_t value) { paramsJson[name] = jsonText(value); }
    void param(const std::string& name, double value) { paramsJson[name] = jsonText(value); }
    void param(const std::string& name, const std::string& value)
    {
        paramsJson[name] = jsonText(value);
    }
    void param(const std::string& name, const std::vector<std::int64_t>& value)
    {
        paramsJson[name] = jsonText(value);
    }
    void param(const std::string& name, const std::vector<double>& value)
    {
        paramsJson[name] = jsonText(value);
    }
};

// Throws std::runtime_error carrying the file:line:col diagnostic when the kernel cannot run.
void simulateOnTensors(const std::string& kernelSource, const std::string& file,
                       const std::string& function, KernelArguments& arguments);

} // namespace ptowb::sim
