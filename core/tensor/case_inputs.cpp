#include "tensor/case_inputs.h"

#include "tensor/npy.h"

#include <cmath>
#include <filesystem>

namespace ptowb {
namespace {

// splitmix64: a small, well-mixed generator with a fixed definition.
struct SplitMix64
{
    std::uint64_t state;
    std::uint64_t next()
    {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    double uniform01() { return double(next() >> 11) * (1.0 / 9007199254740992.0); } // [0, 1)
};

std::uint64_t fnv1a(std::uint64_t hash, const std::string& text)
{
    for (unsigned char c : text)
        hash = (hash ^ c) * 0x100000001b3ull;
    return (hash ^ 0xff) * 0x100000001b3ull;
}

} // namespace

std::uint64_t caseInputSeed(std::uint64_t opSeed, const std::string& caseName,
                            const std::string& inputName)
{
    return fnv1a(fnv1a(0xcbf29ce484222325ull ^ opSeed, caseName), inputName);
}

Tensor fillTensor(const FillSpec& fill, DType dtype, const std::vector<std::int64_t>& shape,
                  std::uint64_t seed)
{
    Tensor t(dtype, shape);
    SplitMix64 rng{seed};
    const std::int64_t n = t.numel();
    switch (fill.kind) {
    case FillSpec::Kind::Zeros:
        break;
    case FillSpec::Kind::Ones:
        for (std::int64_t k = 0; k < n; ++k)
            t.set(k, 1.0);
        break;
    case FillSpec::Kind::Arange:
        for (std::int64_t k = 0; k < n; ++k)
            t.set(k, double(k));
        break;
    case FillSpec::Kind::Uniform:
        for (std::int64_t k = 0; k < n; ++k)
            t.set(k, fill.a + (fill.b - fill.a) * rng.uniform01());
        break;
    case FillSpec::Kind::RandInt: {
        const auto span = std::uint64_t(fill.b - fill.a);
        for (std::int64_t k = 0; k < n; ++k)
            t.set(k, fill.a + double(rng.next() % span));
        break;
    }
    case FillSpec::Kind::Normal:
        // Box-Muller, two values per pair of uniforms.
        for (std::int64_t k = 0; k < n; k += 2) {
            const double u1 = 1.0 - rng.uniform01(), u2 = rng.uniform01();
            const double r = std::sqrt(-2.0 * std::log(u1));
            t.set(k, fill.a + fill.b * r * std::cos(2 * M_PI * u2));
            if (k + 1 < n) t.set(k + 1, fill.a + fill.b * r * std::sin(2 * M_PI * u2));
        }
        break;
    case FillSpec::Kind::File:
        break; // handled by the caller, which knows the project folder
    }
    return t;
}

std::variant<std::vector<Tensor>, std::string>
makeCaseInputs(const OpSpec& spec, const CaseSpec& testCase, const std::string& projectDir)
{
    std::vector<Tensor> tensors;
    for (std::size_t k = 0; k < spec.inputs.size() && k < testCase.inputs.size(); ++k) {
        const CaseInputSpec& in = testCase.inputs[k];
        const std::string& name = spec.inputs[k].name;
        if (in.fill.kind != FillSpec::Kind::File) {
            tensors.push_back(fillTensor(in.fill, in.dtype, in.shape,
                                         caseInputSeed(spec.seed, testCase.name, name)));
            continue;
        }
        // The file's header is compared with the case before any of its data is read: the case's
        // shape is what the memory limit was checked against, not whatever the file holds.
        auto loaded = readNpy((std::filesystem::path(projectDir) / in.fill.path).string(),
                              {in.dtype, in.shape, "the case says"});
        if (auto* e = std::get_if<std::string>(&loaded))
            return "case '" + testCase.name + "', input '" + name + "': " + *e;
        tensors.push_back(std::move(std::get<Tensor>(loaded)));
    }
    return tensors;
}

} // namespace ptowb
