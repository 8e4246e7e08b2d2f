#ifndef PTOWB_CANN_API_GRAPH_TENSOR_H
#define PTOWB_CANN_API_GRAPH_TENSOR_H

// ge::Shape and ge::TensorDesc of the graph API (graph/tensor.h).
#include "graph/types.h"

#include <cstddef>
#include <memory>
#include <vector>

namespace ge {

class ShapeImpl;
class Shape
{
public:
    Shape();
    explicit Shape(const std::vector<std::int64_t>& dims);
    std::size_t GetDimNum() const;
    std::int64_t GetDim(std::size_t idx) const;
    std::vector<std::int64_t> GetDims() const;

private:
    std::shared_ptr<ShapeImpl> impl_;
};

class TensorDescImpl;
class TensorDesc
{
public:
    TensorDesc();
    explicit TensorDesc(Shape shape, Format format = FORMAT_ND, DataType dt = DT_FLOAT);
    Shape GetShape() const;
    void SetShape(const Shape& shape);
    graphStatus SetUnknownDimNumShape();
    DataType GetDataType() const;
    void SetDataType(DataType dt);

private:
    std::shared_ptr<TensorDescImpl> impl;
};

} // namespace ge

#endif
