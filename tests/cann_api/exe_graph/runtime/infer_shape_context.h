#ifndef PTOWB_CANN_API_EXE_GRAPH_RUNTIME_INFER_SHAPE_CONTEXT_H
#define PTOWB_CANN_API_EXE_GRAPH_RUNTIME_INFER_SHAPE_CONTEXT_H

// gert::InferShapeContext (exe_graph/runtime/infer_shape_context.h and the
// ExtendedKernelContext accessors it inherits).
#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/shape.h"
#include "graph/types.h"

#include <cstddef>

namespace gert {

class CompileTimeTensorDesc
{
public:
    ge::DataType GetDataType() const;
    ge::Format GetOriginFormat() const;
};

class InferShapeContext
{
public:
    const Shape* GetInputShape(const std::size_t index) const;
    const Shape* GetOptionalInputShape(const std::size_t ir_index) const;
    Shape* GetOutputShape(const std::size_t index);
    const CompileTimeTensorDesc* GetInputDesc(const std::size_t index) const;
    const RuntimeAttrs* GetAttrs() const;
    const char* GetNodeName() const;
    const char* GetNodeType() const;
};

class InferShapeRangeContext;

} // namespace gert

#endif
