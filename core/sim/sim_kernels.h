#pragma once

// The simulator's kernels, one enum per family, holding exactly the names the workbench's pypto
// module passes to _ptowb_sim's unary, binary, compare, reduce and argreduce: the build lists
// them from the module (sim_kernel_names.cmake writes sim_kernel_names.h). Each family is
// computed by a switch over its enum, and the build stops at a switch that lacks a kernel
// (-Werror=switch), so a new op is its pypto function plus its case here.
#include "sim_kernel_names.h"

#include <string_view>

namespace ptowb::sim {

#define PTOWB_SIM_ENUMERATOR(kernel) kernel,
enum class UnaryKernel
{
    PTOWB_SIM_UNARY_KERNELS(PTOWB_SIM_ENUMERATOR)
};
enum class BinaryKernel
{
    PTOWB_SIM_BINARY_KERNELS(PTOWB_SIM_ENUMERATOR)
};
enum class CompareKernel
{
    PTOWB_SIM_COMPARE_KERNELS(PTOWB_SIM_ENUMERATOR)
};
enum class ReduceKernel
{
    PTOWB_SIM_REDUCE_KERNELS(PTOWB_SIM_ENUMERATOR)
};
enum class ArgReduceKernel
{
    PTOWB_SIM_ARGREDUCE_KERNELS(PTOWB_SIM_ENUMERATOR)
};
#undef PTOWB_SIM_ENUMERATOR

// The kernel the module calls `name`; for a name it does not call, an OpError "not supported
// by the simulator: pypto.<name>".
UnaryKernel unaryKernel(std::string_view name);
BinaryKernel binaryKernel(std::string_view name);
CompareKernel compareKernel(std::string_view name);
ReduceKernel reduceKernel(std::string_view name);
ArgReduceKernel argReduceKernel(std::string_view name);

} // namespace ptowb::sim
