// The ptowb_Rt support the generated C++11 glue carries (templates/cpp_rule_support.inc.in):
// scalars that may be unknown, lists and the shape functions, with the workbench evaluator's
// semantics on known values (core/rules/rule_evaluator.cpp, shape_functions.cpp) and GE's
// unknown dims and ranks.
#include "codegen/cpp_rule_support.h"

#include "codegen/templates.h"
#include "text/template_text.h"
#include "types/dtype.h"

namespace ptowb::codegen {

std::string cppRuleSupportIncludes()
{
    return cppRuleSupportIncludesTemplate();
}

std::string cppRuleSupport()
{
    // The dtype enumeration and torch's promotion come from core's one table, so the deployed
    // op promotes exactly as the workbench does.
    std::string enumerators, promotionRows;
    for (const auto& info : allDTypes())
        enumerators += "    " + std::string(info.cppEnum) + ",\n";
    for (const auto& a : allDTypes()) {
        promotionRows += "        {";
        for (const auto& b : allDTypes())
            promotionRows += (b.dtype == allDTypes().front().dtype ? "" : ", ") +
                             std::to_string(int(promoteTypes(a.dtype, b.dtype)));
        promotionRows += "},\n";
    }
    return fillTemplate(cppRuleSupportTemplate(),
                        {
                            {"DTYPE_ENUMERATORS", enumerators},
                            {"DTYPE_COUNT", std::to_string(allDTypes().size())},
                            {"PROMOTION_ROWS", promotionRows},
                        });
}

} // namespace ptowb::codegen
