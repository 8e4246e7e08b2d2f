#pragma once

// What the simulator's tests share: kernels of tests/data/sim_kernels run by name, seeded inputs,
// output specs, a tolerant comparison and a small test platform.
#include "sim_harness.h"

#include <QFile>
#include <QString>
#include <QtGlobal>

namespace simtest {

using SimOutput = OutputSpec;
inline std::string kernelText(const QString& folder, const char* name)
{
    QFile f(QStringLiteral(PTOWB_TEST_DATA "/") + folder + QStringLiteral("/") +
            QString::fromLatin1(name) + QStringLiteral(".py"));
    if (!f.open(QIODevice::ReadOnly)) qFatal("no kernel %s", name);
    return f.readAll().toStdString();
}

inline SimRun runFile(const char* name, const std::map<std::string, at::Tensor>& inputs,
                      const std::map<std::string, SimOutput>& outputs,
                      nlohmann::json params = nlohmann::json::object())
{
    return runSource(kernelText(QStringLiteral("sim_kernels"), name), inputs, outputs,
                     std::move(params));
}

inline at::Tensor randn(std::vector<std::int64_t> shape, at::ScalarType type = at::kFloat)
{
    return at::randn(shape).to(type);
}
inline SimOutput out(std::vector<std::int64_t> shape, at::ScalarType type = at::kFloat)
{
    return {std::move(shape), type};
}

inline bool close(const at::Tensor& a, const at::Tensor& b, double rtol = 1e-5, double atol = 1e-6)
{
    if (!a.defined() || a.sizes() != b.sizes() || a.scalar_type() != b.scalar_type()) {
        qWarning("shape/dtype differ: %s vs %s",
                 a.defined() ? c10::str(a.sizes(), " ", a.scalar_type()).c_str() : "undefined",
                 c10::str(b.sizes(), " ", b.scalar_type()).c_str());
        return false;
    }
    const bool ok = at::allclose(a.to(at::kDouble), b.to(at::kDouble), rtol, atol, true);
    if (!ok)
        qWarning("max abs error %g",
                 (a.to(at::kDouble) - b.to(at::kDouble)).abs().max().item<double>());
    return ok;
}

inline const char* const kTestPlatform =
    R"({"name": "test", "cores": 1, "unified_buffer_bytes": 131072, "vector_fp16_elements_per_cycle": 128,
  "cube_fp16_flops_per_cycle": 8192, "clock_ghz": 1.0, "memory_gbps": 64.0, "source": "test numbers"})";

} // namespace simtest
