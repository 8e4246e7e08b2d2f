#pragma once

// For generated op libraries (PTOWB_BACKEND=sim): runs the op's kernel file on libtorch tensors
// through the kernel worker (worker/worker_client.h), the same simulator as the workbench.
// Includes libtorch: only for core .cpp files and generated op code.
#include <map>
#include <string>
#include <torch/torch.h>
#include <vector>

namespace ptowb::sim {

// One kernel call, bound by name: inputs, outputs (allocated by the caller and written in
// place) and the op's parameters.
struct KernelArguments
{
    std::map<std::string, at::Tensor> inputs;
    std::map<std::string, at::Tensor> outputs;
    std::map<std::string, std::string> paramsJson; // each parameter's value as JSON text

    void param(const std::string& name, bool value);
    void param(const std::string& name, std::int64_t value);
    void param(const std::string& name, double value);
    void param(const std::string& name, const std::string& value);
    void param(const std::string& name, const std::vector<std::int64_t>& value);
    void param(const std::string& name, const std::vector<double>& value);
};

// Throws std::runtime_error carrying the file:line:col diagnostic when the kernel cannot run.
void simulateOnTensors(const std::string& kernelSource, const std::string& file,
                       const std::string& function, KernelArguments& arguments);

} // namespace ptowb::sim
