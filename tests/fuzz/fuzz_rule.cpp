// A rule's text -> parse and type check in a scope of two inputs and one parameter of each type,
// then evaluation on fixed inputs.
#include "rules/rule.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace ptowb::rules;
    static const RuleScope scope{{"x", "w"},
                                 {{"n", Type::Int},
                                  {"eps", Type::Float},
                                  {"flag", Type::Bool},
                                  {"mode", Type::Str},
                                  {"dims", Type::Shape},
                                  {"weights", Type::FloatList}}};
    auto compiled =
        Rule::compile(std::string_view(reinterpret_cast<const char*>(data), size), scope);
    if (auto* rule = std::get_if<Rule>(&compiled)) {
        static const TensorInfo inputs[] = {{{4, 32}, ptowb::DType::Float16},
                                            {{32}, ptowb::DType::Float32}};
        static const Value params[] = {Value::ofInt(8),         Value::ofFloat(1e-6),
                                       Value::ofBool(true),     Value::ofStr("m"),
                                       Value::ofShape({1, -1}), Value::ofFloatList({0.5, 2.0})};
        (void)rule->evaluate(RuleBindings{inputs, params});
    }
    return 0;
}
