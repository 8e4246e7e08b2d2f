#include "sim/sim_kernels.h"

#include "sim/sim_ops.h"

#include <algorithm>
#include <iterator>

namespace ptowb::sim {

namespace {

// Each family's names in the order of its enum, so a name's index is its kernel.
#define PTOWB_SIM_NAME(kernel) #kernel,
constexpr std::string_view kUnary[] = {PTOWB_SIM_UNARY_KERNELS(PTOWB_SIM_NAME)};
constexpr std::string_view kBinary[] = {PTOWB_SIM_BINARY_KERNELS(PTOWB_SIM_NAME)};
constexpr std::string_view kCompare[] = {PTOWB_SIM_COMPARE_KERNELS(PTOWB_SIM_NAME)};
constexpr std::string_view kReduce[] = {PTOWB_SIM_REDUCE_KERNELS(PTOWB_SIM_NAME)};
constexpr std::string_view kArgReduce[] = {PTOWB_SIM_ARGREDUCE_KERNELS(PTOWB_SIM_NAME)};
#undef PTOWB_SIM_NAME

template <typename Kernel, std::size_t N>
Kernel named(const std::string_view (&names)[N], std::string_view name)
{
    const auto it = std::find(std::begin(names), std::end(names), name);
    if (it == std::end(names))
        throw OpError{"not supported by the simulator: pypto." + std::string(name),
                      "sim.unsupported"};
    return Kernel(it - std::begin(names));
}

} // namespace

UnaryKernel unaryKernel(std::string_view name)
{
    return named<UnaryKernel>(kUnary, name);
}

BinaryKernel binaryKernel(std::string_view name)
{
    return named<BinaryKernel>(kBinary, name);
}

CompareKernel compareKernel(std::string_view name)
{
    return named<CompareKernel>(kCompare, name);
}

ReduceKernel reduceKernel(std::string_view name)
{
    return named<ReduceKernel>(kReduce, name);
}

ArgReduceKernel argReduceKernel(std::string_view name)
{
    return named<ArgReduceKernel>(kArgReduce, name);
}

} // namespace ptowb::sim
