#pragma once

#include "rules/rule.h"
#include "types/dtype.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ptowb {

// kernel.made_by naming the kernel file's `if __name__ == "__main__":` block: an example whose main
// calls a launcher with arguments (`run_demo("npu")`) that builds and runs the kernel.
inline constexpr const char* kMainBlockMaker = "__main__";

struct SourceFileRef
{
    std::string file; // relative to the project folder
    std::string function;
    // The kernel only: the function of the file that builds the kernel when the kernel is made
    // inside a function ("test_add", "TestOps.test_add", "test_add[fp16]", "__main__"); empty:
    // top level.
    std::string madeBy;
    // The kernel only: op.json's kernel.made_with, the arguments of a factory madeBy names, as
    // the kernel worker takes them (JSON object text: {"dtype": {"dtype": "float16"}, "n": 4});
    // empty: none.
    std::string madeWithJson;
    // madeBy's top-level name: the function, or the class of Class.NAME.
    std::string maker() const { return madeBy.substr(0, madeBy.find_first_of(".[")); }
};

struct InputSpec
{
    std::string name;
    std::vector<DType> dtypes;
    std::optional<int> rank;
    std::string doc;
    // The kernel writes into this input in place (a cache, an accumulator): its value after the
    // call is a result, compared like an output; torch declares it in mutates_args.
    bool mutated = false;
    // op.json lists a name here that is no dtype (an error there): a case choosing a real dtype
    // the list lacks may be choosing the one that was meant, and is not blamed too.
    bool listsUnknownDtype = false;
};

struct ParamSpec
{
    std::string name;
    ParamType type = ParamType::Int;
    std::optional<rules::Value> defaultValue; // absent: the parameter is required
    std::string doc;
};

struct OutputSpec
{
    std::string name;
    std::string shapeRule;
    std::string dtypeRule;
    std::string doc;
    // What the output holds before the kernel runs, for kernels that accumulate into it; none:
    // NaN (zero for integers), so elements the kernel never writes show up.
    std::optional<double> init;
    std::optional<rules::Rule> shape; // set when the rule compiled
    std::optional<rules::Rule> dtype;
};

struct ConstraintSpec
{
    std::string check;
    std::string message;
    std::optional<rules::Rule> rule;
};

struct ToleranceSpec
{
    struct Bounds
    {
        double rtol = 0;
        double atol = 0;
    };
    std::map<DType, Bounds> perDType;
    std::vector<std::string> criteria; // allclose, ratio, cosine, double_thousandth
    std::optional<double> maxErrorRatio;
    std::optional<double> minCosine;
};

struct FillSpec
{
    enum class Kind
    {
        Normal,
        Uniform,
        Arange,
        Zeros,
        Ones,
        RandInt,
        File
    };
    Kind kind = Kind::Normal;
    double a = 0;     // mean, lo
    double b = 1;     // std, hi
    std::string path; // Kind::File, relative to the project folder
};

struct CaseInputSpec
{
    std::vector<std::int64_t> shape;
    DType dtype = DType::Float32;
    FillSpec fill;
};

struct CaseSpec
{
    std::string name;
    std::vector<CaseInputSpec> inputs; // one per op input, in the op's order
    std::vector<rules::Value> params;  // one per op parameter, defaults filled in
    // Result name -> .npy file (relative to the project folder) holding the value the case's
    // result must have, as a test recorded it (`"expected": {"y": "file:cases/a/y.expected.npy"}`).
    // When every result has one, the reference is not run for the case.
    std::map<std::string, std::string> expected;
    // Results the case's test checked no value of (`"expected": {"a": null}`): verify does not
    // compare them in this case. A result is in one of the two, or neither.
    std::set<std::string> unchecked;
    // Every result has an expected value or is unchecked, and at least one has a value.
    bool expectsEveryResult(const std::vector<std::string>& results) const;
};

// A kernel parameter that is none of the op's inputs, outputs or parameters, given a value per
// case: the value of a rule (`"NUM_ROWS": "x.shape[0]"`), or an instance of a class of the kernel
// file built from rules (`"config": {"class": "NormConfig", "fields": {"eps": "eps"}}`), for
// kernels that take a dataclass config. A JSON array instead of a rule is a literal value, passed
// as a Python list as it is written (`"tile_shape": [[128, 128], [64, 64]]`): nested lists,
// which no rule gives.
struct KernelArgumentSpec
{
    struct Field
    {
        std::string name;
        std::string ruleText;
        std::optional<rules::Rule> rule; // set when the rule compiled
        std::string literalJson;         // set instead of a rule: the JSON array or dict
    };
    std::string name;      // the kernel's parameter
    std::string className; // empty: the argument is fields[0]'s value (its name is empty)
    std::vector<Field> fields;
};

struct TargetSpec
{
    std::vector<std::string> soc;
    int onnxOpset = 13;
};

// The op description (op.json) after loading. Fields hold what the file says; when the
// loader reported errors, the spec is incomplete and must not be used for generation.
struct OpSpec
{
    std::string format;
    std::string name;
    std::string ns;
    std::string opType;
    std::string version;
    std::string doc;
    SourceFileRef kernel;
    std::vector<KernelArgumentSpec> kernelArguments; // "kernel": {"arguments": {...}}
    SourceFileRef reference;
    std::vector<InputSpec> inputs;
    std::vector<ParamSpec> params;
    std::vector<OutputSpec> outputs;
    std::vector<ConstraintSpec> constraints;
    ToleranceSpec tolerance;
    std::vector<CaseSpec> cases;
    std::uint64_t seed = 0;
    TargetSpec targets;

    rules::RuleScope ruleScope() const;
    int inputIndex(const std::string& inputName) const;
    int paramIndex(const std::string& paramName) const;
    // What a call produces: every output, then every mutated input (its value after the call).
    std::vector<std::string> resultNames() const;
    std::vector<std::size_t> mutatedInputs() const; // indices into inputs
};

inline constexpr const char* kOpFormat = "ptowb-op/1";

rules::Type ruleTypeOf(ParamType type);

} // namespace ptowb
