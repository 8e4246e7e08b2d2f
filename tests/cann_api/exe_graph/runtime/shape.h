#ifndef PTOWB_CANN_API_EXE_GRAPH_RUNTIME_SHAPE_H
#define PTOWB_CANN_API_EXE_GRAPH_RUNTIME_SHAPE_H

// gert::Shape (exe_graph/runtime/shape.h): at most kMaxDimNum dims; {-2} is an unknown rank.
#include <cstddef>
#include <cstdint>
#include <initializer_list>

namespace gert {

struct Shape
{
public:
    static constexpr std::size_t kMaxDimNum = 25;

    Shape();
    Shape(const std::initializer_list<std::int64_t>& args);
    std::size_t GetDimNum() const;
    void SetDimNum(const std::size_t dim_num);
    std::int64_t GetDim(const std::size_t idx) const;
    void SetDim(std::size_t idx, const std::int64_t dim_value);
    Shape& AppendDim(const std::int64_t value);

private:
    std::size_t dim_num_;
    std::int64_t dims_[kMaxDimNum];
};

} // namespace gert

#endif
