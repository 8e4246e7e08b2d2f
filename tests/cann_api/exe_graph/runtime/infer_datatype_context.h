#ifndef PTOWB_CANN_API_EXE_GRAPH_RUNTIME_INFER_DATATYPE_CONTEXT_H
#define PTOWB_CANN_API_EXE_GRAPH_RUNTIME_INFER_DATATYPE_CONTEXT_H

// gert::InferDataTypeContext (exe_graph/runtime/infer_datatype_context.h): dtypes only, no shapes.
#include "exe_graph/runtime/runtime_attrs.h"
#include "graph/types.h"

#include <cstddef>

namespace gert {

class InferDataTypeContext
{
public:
    ge::DataType GetInputDataType(const std::size_t index) const;
    ge::DataType GetOutputDataType(const std::size_t index) const;
    ge::graphStatus SetOutputDataType(const std::size_t index, const ge::DataType datatype);
    const RuntimeAttrs* GetAttrs() const;
    const char* GetNodeName() const;
};

} // namespace gert

#endif
