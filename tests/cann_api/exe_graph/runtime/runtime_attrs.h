#ifndef PTOWB_CANN_API_EXE_GRAPH_RUNTIME_RUNTIME_ATTRS_H
#define PTOWB_CANN_API_EXE_GRAPH_RUNTIME_RUNTIME_ATTRS_H

// gert::RuntimeAttrs (exe_graph/runtime/runtime_attrs.h): attributes by the index the OpDef
// declared them at; null when absent or of another type.
#include <cstddef>
#include <cstdint>

namespace gert {

template <typename T> class TypedContinuousVector
{
public:
    std::size_t GetSize() const;
    const T* GetData() const;
};

class RuntimeAttrs
{
public:
    const std::int64_t* GetInt(const std::size_t index) const;
    const TypedContinuousVector<std::int64_t>* GetListInt(const std::size_t index) const;
    const char* GetStr(const std::size_t index) const;
    const float* GetFloat(const std::size_t index) const;
    const bool* GetBool(const std::size_t index) const;
    const TypedContinuousVector<float>* GetListFloat(const std::size_t index) const;
    std::size_t GetAttrNum() const;
};

} // namespace gert

#endif
