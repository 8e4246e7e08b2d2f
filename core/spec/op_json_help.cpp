#include "spec/op_json_help.h"

#include "types/dtype.h"

#include <map>

namespace ptowb {

std::string opJsonHelp(const std::string& word)
{
    static const std::map<std::string, std::string> kHelp{
        {"format", "\"ptowb-op/1\": the version of this description format."},
        {"name",
         "The op's name (top level, [a-z_][a-z0-9_]*), or the name of an input, parameter or "
         "output ([A-Za-z_][A-Za-z0-9_]*, "
         "as the kernel's parameter is spelled) or case. Python and C++ keywords are rejected."},
        {"init", "In outputs: the value the output holds before the kernel runs, for kernels that "
                 "accumulate into it (default: NaN, "
                 "so elements the kernel never writes show up)."},
        {"namespace",
         "Identifier: the torch library namespace, e.g. \"pto\" gives torch.ops.pto.<name>."},
        {"op_type", "CamelCase type [A-Z][A-Za-z0-9]* of the node in ONNX and in the graph "
                    "compiler (CANN REG_OP)."},
        {"version",
         "The op's version; packages are named <name>-<version> and every ONNX node records it."},
        {"doc",
         "Free text, copied (escaped) into the generated docstrings and the package README."},
        {"kernel", "{\"file\", \"function\", \"arguments\"}: the PyPTO kernel. Its parameters bind "
                   "by name to the inputs, outputs and "
                   "parameters, and to the kernel arguments."},
        {"arguments", "In kernel: values for kernel parameters that are none of the op's names, "
                      "per case: a rule (\"NUM_ROWS\": "
                      "\"x.shape[0]\"), or {\"class\": \"NormConfig\", \"fields\": {\"eps\": "
                      "\"eps\"}} for a config object of "
                      "the kernel file, built from rules."},
        {"class", "In kernel arguments: a class of the kernel file (NormConfig, or a dotted path), "
                  "called with the fields as keywords."},
        {"fields", "In kernel arguments: the class's keyword arguments, each a rule over the "
                   "inputs and parameters."},
        {"reference", "{\"file\", \"function\"}: the CPU reference (torch). It takes the inputs "
                      "and the parameters and returns the outputs."},
        {"file", "Path relative to the project folder."},
        {"function", "Name of the Python function in that file."},
        {"inputs", "List of tensor inputs: name, dtypes, optional rank and doc."},
        {"dtypes", "The dtypes an input accepts; every generated description lists each of them."},
        {"mutated", "In inputs: true when the kernel writes into the input in place (a cache, an "
                    "accumulator). Its value after the "
                    "call is compared like an output; torch declares it in mutates_args "
                    "(Tensor(a!)), CANN as a ref input."},
        {"rank", "Optional: the number of dimensions an input must have."},
        {"parameters", "List of scalar or list parameters: name, type, optional default (without "
                       "one the parameter is required)."},
        {"type", "Parameter type: bool, int, float, str, int[] or float[]."},
        {"default",
         "The parameter's value when a call leaves it out; must have the parameter's type."},
        {"outputs", "List of outputs, each with a shape and a dtype rule, evaluated the same way "
                    "in torch, ONNX and CANN."},
        {"shape", "In outputs: a rule giving a list of ints, e.g. \"[x.shape[0], channels]\". In "
                  "cases: the input's concrete shape."},
        {"dtype", "In outputs: a rule giving a dtype, e.g. \"x.dtype\" or \"promote(a.dtype, "
                  "b.dtype)\". In cases: the input's dtype."},
        {"constraints", "Rules that must hold for a call: {\"check\": rule, \"message\": text}. A "
                        "violated check raises its message."},
        {"check", "A bool rule, e.g. \"1 <= channels <= x.shape[1]\"."},
        {"message", "What the author sees when the check fails."},
        {"tolerance", "How outputs are judged: {\"<dtype>\": {\"rtol\", \"atol\"}, \"criteria\": "
                      "[...], \"max_error_ratio\", \"min_cosine\"}."},
        {"rtol", "Relative tolerance: an element passes when |a - e| <= atol + rtol * |e|."},
        {"atol", "Absolute tolerance: an element passes when |a - e| <= atol + rtol * |e|."},
        {"criteria", "Which checks decide the verdict: allclose, ratio, cosine, double_thousandth "
                     "(all listed must pass)."},
        {"allclose", "Criterion: every element within atol + rtol * |expected|."},
        {"ratio", "Criterion: the share of elements outside the tolerance is at most "
                  "max_error_ratio (default 0.005)."},
        {"cosine", "Criterion: the cosine similarity of the flattened tensors is at least "
                   "min_cosine (default 0.9999)."},
        {"double_thousandth",
         "Criterion: more than 99.9% of elements have a relative error below 0.001."},
        {"max_error_ratio",
         "For the ratio criterion: the largest allowed share of mismatching elements (0..1)."},
        {"min_cosine", "For the cosine criterion: the smallest allowed cosine similarity (-1..1)."},
        {"cases", "Named test cases: inputs with shape, dtype and fill, and parameter values. "
                  "Verify runs each one."},
        {"fill", "How a case input is made: normal(mean, std), uniform(lo, hi), randint(lo, hi), "
                 "arange, zeros, ones or file:<path>.npy."},
        {"seed", "Seed of every generated case input (default 0): the same description gives the "
                 "same inputs."},
        {"targets", "{\"soc\": [...], \"onnx_opset\": n}: the devices the graph-compiler "
                    "description is for, and the ONNX opset."},
        {"soc", "SoC names, e.g. KirinX90. The first one also picks the simulator's cost model "
                "when a platform file has its name."},
        {"onnx_opset", "The ONNX opset the exported model and the schema use."},
        {"normal", "normal(mean, std): Gaussian case input."},
        {"uniform", "uniform(lo, hi): uniformly distributed case input."},
        {"randint", "randint(lo, hi): integers in [lo, hi)."},
        {"arange", "0, 1, 2, ... in C order."},
        {"zeros", "All zeros."},
        {"ones", "All ones."},
        {"min", "Rule function min(a, b, ...)."},
        {"max", "Rule function max(a, b, ...)."},
        {"abs", "Rule function abs(x)."},
        {"len", "Rule function len(list)."},
        {"prod", "Rule function prod(list): the product of a shape."},
        {"sum", "Rule function sum(list)."},
        {"ceil_div", "Rule function ceil_div(a, b): (a + b - 1) // b."},
        {"broadcast", "Rule function broadcast(s1, s2, ...): the NumPy broadcast of shapes."},
        {"promote", "Rule function promote(d1, d2): torch's type promotion."},
        {"reduce", "Rule function reduce(shape, dims, keepdim): the shape after reducing dims."},
        {"transpose", "Rule function transpose(shape, d0, d1): the shape with two dims swapped."},
        {"matmul_shape", "Rule function matmul_shape(a_shape, b_shape, trans_a, trans_b): the "
                         "shape of a (batched) matmul."},
        {"numel", "x.numel: the number of elements of a tensor."},
    };
    if (auto it = kHelp.find(word); it != kHelp.end()) return it->second;
    if (auto dtype = dtypeFromName(word))
        return "dtype " + word + " (" + std::to_string(dtypeInfo(*dtype).itemSize) +
               " bytes per element).";
    return {};
}

} // namespace ptowb
