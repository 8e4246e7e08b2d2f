#include "spec/op_json_vocabulary.h"

#include "rules/rule_builtins.h"
#include "spec/fill_spec.h"
#include "types/dtype.h"

namespace ptowb {

namespace {

struct OpJsonWord
{
    const char* word;
    OpJsonWordKind kind;
    const char* help;
};

constexpr OpJsonWord kWords[] = {
    {"format", OpJsonWordKind::TopKey, "\"ptowb-op/1\": the version of this description format."},
    {"ptowb-op/1", OpJsonWordKind::Value, "The only value of \"format\" this workbench reads."},
    {"name", OpJsonWordKind::TopKey,
     "The op's name (top level, [a-z_][a-z0-9_]*), or the name of an input, parameter or output "
     "([A-Za-z_][A-Za-z0-9_]*, as the kernel's parameter is spelled) or case. Python and C++ "
     "keywords are rejected."},
    {"init", OpJsonWordKind::Key,
     "In outputs: the value the output holds before the kernel runs, for kernels that accumulate "
     "into it (default: NaN, so elements the kernel never writes show up)."},
    {"namespace", OpJsonWordKind::TopKey,
     "Identifier: the torch library namespace, e.g. \"pto\" gives torch.ops.pto.<name>."},
    {"op_type", OpJsonWordKind::TopKey,
     "CamelCase type [A-Z][A-Za-z0-9]* of the node in ONNX and in the graph compiler (CANN "
     "REG_OP)."},
    {"version", OpJsonWordKind::TopKey,
     "The op's version; packages are named <name>-<version> and every ONNX node records it."},
    {"doc", OpJsonWordKind::TopKey,
     "Free text, copied (escaped) into the generated docstrings and the package README."},
    {"kernel", OpJsonWordKind::TopKey,
     "{\"file\", \"function\", \"arguments\", \"made_by\", \"made_with\"}: the PyPTO kernel. Its "
     "parameters bind by name to the inputs, outputs and parameters, and to the kernel arguments."},
    {"made_by", OpJsonWordKind::Key,
     "In kernel: for a kernel defined inside a function, the function of the file that builds it "
     "(a test, a launcher, a factory): NAME, Class.NAME or NAME[pytest case id]. It runs until it "
     "calls or returns the kernel; that call is not made."},
    {"made_with", OpJsonWordKind::Key,
     "In kernel: the arguments of the factory made_by names, when it takes some "
     "(\"dtype\": \"float16\", \"name\": \"'abs_001'\", \"tiles\": [64, 64]): each a rule giving a "
     "constant (no input or parameter: the kernel is made once, before any case), a list given "
     "as is, or {\"class\": \"BSAConfig\", \"fields\": {...}} for a config whose other fields keep "
     "the class's defaults."},
    {"arguments", OpJsonWordKind::Key,
     "In kernel: values for kernel parameters that are none of the op's names, per case: a rule "
     "(\"NUM_ROWS\": \"x.shape[0]\"), a list given as is ([[128, 128], [64, 64]]), or "
     "{\"class\": \"NormConfig\", \"fields\": {\"eps\": \"eps\"}} for a config object of the "
     "kernel file, built from rules."},
    {"class", OpJsonWordKind::Key,
     "In kernel arguments: a class of the kernel file (NormConfig, or a dotted path), called with "
     "the fields as keywords."},
    {"fields", OpJsonWordKind::Key,
     "In kernel arguments: the class's keyword arguments, each a rule over the inputs and "
     "parameters, or a list given as is."},
    {"reference", OpJsonWordKind::TopKey,
     "{\"file\", \"function\"}: the CPU reference (torch). It takes the inputs and the parameters "
     "and returns the outputs."},
    {"file", OpJsonWordKind::Key, "Path relative to the project folder."},
    {"function", OpJsonWordKind::Key, "Name of the Python function in that file."},
    {"inputs", OpJsonWordKind::TopKey,
     "List of tensor inputs: name, dtypes, optional rank and doc."},
    {"dtypes", OpJsonWordKind::Key,
     "The dtypes an input accepts; every generated description lists each of them."},
    {"mutated", OpJsonWordKind::Key,
     "In inputs: true when the kernel writes into the input in place (a cache, an accumulator). "
     "Its value after the call is compared like an output; torch declares it in mutates_args "
     "(Tensor(a!)), CANN as a ref input."},
    {"rank", OpJsonWordKind::Key, "Optional: the number of dimensions an input must have."},
    {"parameters", OpJsonWordKind::TopKey,
     "List of scalar or list parameters: name, type, optional default (without one the parameter "
     "is required)."},
    {"type", OpJsonWordKind::Key, "Parameter type: bool, int, float, str, int[] or float[]."},
    {"default", OpJsonWordKind::Key,
     "The parameter's value when a call leaves it out; must have the parameter's type."},
    {"outputs", OpJsonWordKind::TopKey,
     "List of outputs, each with a shape and a dtype rule, evaluated the same way in torch, ONNX "
     "and CANN."},
    {"shape", OpJsonWordKind::Key,
     "In outputs: a rule giving a list of ints, e.g. \"[x.shape[0], channels]\". In cases: the "
     "input's concrete shape."},
    {"dtype", OpJsonWordKind::Key,
     "In outputs: a rule giving a dtype, e.g. \"x.dtype\" or \"promote(a.dtype, b.dtype)\". In "
     "cases: the input's dtype."},
    {"constraints", OpJsonWordKind::TopKey,
     "Rules that must hold for a call: {\"check\": rule, \"message\": text}. A violated check "
     "raises its message."},
    {"check", OpJsonWordKind::Key, "A bool rule, e.g. \"1 <= channels <= x.shape[1]\"."},
    {"message", OpJsonWordKind::Key, "What the author sees when the check fails."},
    {"tolerance", OpJsonWordKind::TopKey,
     "How outputs are judged: {\"<dtype>\": {\"rtol\", \"atol\"}, \"criteria\": [...], "
     "\"max_error_ratio\", \"min_cosine\"}."},
    {"rtol", OpJsonWordKind::Key,
     "Relative tolerance: an element passes when |a - e| <= atol + rtol * |e|."},
    {"atol", OpJsonWordKind::Key,
     "Absolute tolerance: an element passes when |a - e| <= atol + rtol * |e|."},
    {"criteria", OpJsonWordKind::Key,
     "Which checks decide the verdict: allclose, ratio, pass_verify, cosine, double_thousandth "
     "(all listed must pass)."},
    {"allclose", OpJsonWordKind::Criterion,
     "Criterion: every element within atol + rtol * |expected|."},
    {"ratio", OpJsonWordKind::Criterion,
     "Criterion: the share of elements outside the tolerance is at most max_error_ratio (default "
     "0.005)."},
    {"pass_verify", OpJsonWordKind::Criterion,
     "Criterion: PyPTO's pass verification. An element is off when |a - e| > atol + rtol * (|a| + "
     "|e|) / 2; at most min(rtol, atol) of the non-zero pairs may be (when that is none, "
     "sqrt(n) / 2, at most 16), and none by more than 128 times its tolerance."},
    {"cosine", OpJsonWordKind::Criterion,
     "Criterion: the cosine similarity of the flattened tensors is at least min_cosine (default "
     "0.9999)."},
    {"double_thousandth", OpJsonWordKind::Criterion,
     "Criterion: more than 99.9% of elements have a relative error below 0.001."},
    {"max_error_ratio", OpJsonWordKind::Key,
     "For the ratio criterion: the largest allowed share of mismatching elements (0..1)."},
    {"min_cosine", OpJsonWordKind::Key,
     "For the cosine criterion: the smallest allowed cosine similarity (-1..1)."},
    {"cases", OpJsonWordKind::TopKey,
     "Named test cases: inputs with shape, dtype and fill, and parameter values. Verify runs each "
     "one."},
    {"fill", OpJsonWordKind::Key,
     "How a case input is made: normal(mean, std), uniform(lo, hi), randint(lo, hi), arange, "
     "zeros, ones or file:<path>.npy."},
    {"expected", OpJsonWordKind::Key,
     "In cases: {\"<output>\": \"file:<path>.npy\"}, the values a test recorded for the case's "
     "outputs (import writes them); null for an output the test did not check, which verify "
     "skips. When every output has one, verify compares with them and does not run the "
     "reference for the case."},
    {"seed", OpJsonWordKind::TopKey,
     "Seed of every generated case input (default 0): the same description gives the same inputs."},
    {"targets", OpJsonWordKind::TopKey,
     "{\"soc\": [...], \"onnx_opset\": n}: the devices the graph-compiler description is for, and "
     "the ONNX opset."},
    {"soc", OpJsonWordKind::Key,
     "SoC names, e.g. KirinX90. The first one also picks the simulator's cost model when a "
     "platform file has its name."},
    {"onnx_opset", OpJsonWordKind::Key, "The ONNX opset the exported model and the schema use."},
    {"numel", OpJsonWordKind::Value, "x.numel: the number of elements of a tensor."},
};

} // namespace

std::vector<std::string> opJsonWords(OpJsonWordKind kind)
{
    std::vector<std::string> words;
    for (const OpJsonWord& w : kWords)
        if (w.kind == kind) words.emplace_back(w.word);
    return words;
}

std::string opJsonHelp(const std::string& word)
{
    for (const OpJsonWord& w : kWords)
        if (word == w.word) return w.help;
    if (const auto builtin = rules::builtinFromName(word))
        return std::string("Rule function ") + rules::builtinSignature(*builtin) + ": " +
               rules::builtinDoc(*builtin) + ".";
    for (const FillForm& form : fillForms())
        if (word == form.name) return std::string(form.written) + ": " + form.doc + ".";
    if (auto dtype = dtypeFromName(word))
        return "dtype " + word + " (" + std::to_string(dtypeInfo(*dtype).itemSize) +
               " bytes per element).";
    return {};
}

std::vector<std::string> opJsonCompletions()
{
    std::vector<std::string> words;
    for (const OpJsonWord& w : kWords)
        words.emplace_back(w.word);
    for (const FillForm& form : fillForms())
        words.emplace_back(form.written);
    for (const std::string& name : rules::builtinNames())
        words.push_back(rules::builtinSignature(*rules::builtinFromName(name)));
    for (const auto& d : allDTypes())
        words.emplace_back(d.name);
    return words;
}

} // namespace ptowb
