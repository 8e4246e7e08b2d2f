// The reference checker's protocol, both ways (reference/reference_checker.h): the request
// ptowb-reference-check reads on stdin and the answer the workbench reads back from it. Any
// bytes give a value or an error, and what parsed is written and read back the same.
#include "reference/reference_checker.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    if (const auto answer = ptowb::parseReferenceCheckAnswer(text, "reference.py")) {
        const auto again =
            ptowb::parseReferenceCheckAnswer(ptowb::referenceCheckAnswer(*answer), "reference.py");
        if (!again || again->size() != answer->size()) __builtin_trap();
        for (std::size_t k = 0; k < answer->size(); ++k)
            if ((*again)[k].line != (*answer)[k].line || (*again)[k].code != (*answer)[k].code)
                __builtin_trap();
    }
    const auto request = ptowb::parseReferenceCheckRequest(text);
    if (const auto* r = std::get_if<ptowb::ReferenceCheckRequest>(&request)) {
        const auto again =
            ptowb::parseReferenceCheckRequest(ptowb::referenceCheckRequest(r->spec, r->source));
        const auto* back = std::get_if<ptowb::ReferenceCheckRequest>(&again);
        if (!back || back->source != r->source ||
            back->spec.inputs.size() != r->spec.inputs.size() ||
            back->spec.params.size() != r->spec.params.size() ||
            back->spec.outputs.size() != r->spec.outputs.size())
            __builtin_trap();
    }
    return 0;
}
