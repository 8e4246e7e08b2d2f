// Doubles of the runtime API: gert::Shape, RuntimeAttrs and the infer contexts. Contexts and
// attribute lists are empty objects whose accessors look up the RuntimeCall they were bound to.
#include "cann_doubles.h"

#include <map>
#include <sstream>

namespace gert {

constexpr std::size_t Shape::kMaxDimNum;

Shape::Shape() : dim_num_(0), dims_() {}
Shape::Shape(const std::initializer_list<std::int64_t>& args) : Shape()
{
    for (std::int64_t v : args)
        AppendDim(v);
}
std::size_t Shape::GetDimNum() const
{
    return dim_num_;
}
void Shape::SetDimNum(const std::size_t dim_num)
{
    dim_num_ = dim_num;
}
std::int64_t Shape::GetDim(const std::size_t idx) const
{
    return idx < kMaxDimNum ? dims_[idx] : INT64_MIN;
}
void Shape::SetDim(std::size_t idx, const std::int64_t dim_value)
{
    if (idx < kMaxDimNum) dims_[idx] = dim_value;
}
Shape& Shape::AppendDim(const std::int64_t value)
{
    if (dim_num_ < kMaxDimNum) dims_[dim_num_++] = value;
    return *this;
}

namespace {

// Which call an (empty) context or attribute object stands for.
std::map<const void*, ptowb_test::RuntimeCall*>& bound()
{
    static std::map<const void*, ptowb_test::RuntimeCall*> m;
    return m;
}
ptowb_test::RuntimeCall& callOf(const void* object)
{
    return *bound().at(object);
}

// One list attribute per object, as gert keeps them beside each other.
std::map<const void*, const ptowb_test::RuntimeAttr*>& lists()
{
    static std::map<const void*, const ptowb_test::RuntimeAttr*> m;
    return m;
}
std::vector<TypedContinuousVector<std::int64_t>>& intLists()
{
    static std::vector<TypedContinuousVector<std::int64_t>> v(64);
    return v;
}
std::vector<TypedContinuousVector<float>>& floatLists()
{
    static std::vector<TypedContinuousVector<float>> v(64);
    return v;
}
RuntimeAttrs& attrsObject()
{
    static RuntimeAttrs attrs;
    return attrs;
}

const ptowb_test::RuntimeAttr* attr(const RuntimeAttrs* self, std::size_t index,
                                    ptowb_test::RuntimeAttr::Kind kind)
{
    const ptowb_test::RuntimeCall& call = callOf(self);
    if (index >= call.attrs.size() || call.attrs[index].kind != kind) return nullptr;
    return &call.attrs[index];
}

} // namespace

template <> std::size_t TypedContinuousVector<std::int64_t>::GetSize() const
{
    return lists().at(this)->ints.size();
}
template <> const std::int64_t* TypedContinuousVector<std::int64_t>::GetData() const
{
    return lists().at(this)->ints.data();
}
template <> std::size_t TypedContinuousVector<float>::GetSize() const
{
    return lists().at(this)->floats.size();
}
template <> const float* TypedContinuousVector<float>::GetData() const
{
    return lists().at(this)->floats.data();
}

const std::int64_t* RuntimeAttrs::GetInt(const std::size_t i) const
{
    const auto* a = attr(this, i, ptowb_test::RuntimeAttr::Int);
    return a ? &a->i : nullptr;
}
const float* RuntimeAttrs::GetFloat(const std::size_t i) const
{
    const auto* a = attr(this, i, ptowb_test::RuntimeAttr::Float);
    return a ? &a->f : nullptr;
}
const bool* RuntimeAttrs::GetBool(const std::size_t i) const
{
    const auto* a = attr(this, i, ptowb_test::RuntimeAttr::Bool);
    return a ? &a->b : nullptr;
}
const char* RuntimeAttrs::GetStr(const std::size_t i) const
{
    const auto* a = attr(this, i, ptowb_test::RuntimeAttr::Str);
    return a ? a->s.c_str() : nullptr;
}
const TypedContinuousVector<std::int64_t>* RuntimeAttrs::GetListInt(const std::size_t i) const
{
    const auto* a = attr(this, i, ptowb_test::RuntimeAttr::Ints);
    if (a == nullptr) return nullptr;
    lists()[&intLists().at(i)] = a;
    return &intLists().at(i);
}
const TypedContinuousVector<float>* RuntimeAttrs::GetListFloat(const std::size_t i) const
{
    const auto* a = attr(this, i, ptowb_test::RuntimeAttr::Floats);
    if (a == nullptr) return nullptr;
    lists()[&floatLists().at(i)] = a;
    return &floatLists().at(i);
}
std::size_t RuntimeAttrs::GetAttrNum() const
{
    return callOf(this).attrs.size();
}

ge::DataType CompileTimeTensorDesc::GetDataType() const
{
    return *static_cast<const ge::DataType*>(static_cast<const void*>(this));
}

const Shape* InferShapeContext::GetInputShape(const std::size_t index) const
{
    static std::vector<Shape> shapes;
    const auto& call = callOf(this);
    if (index >= call.inputShapes.size()) return nullptr;
    shapes.resize(call.inputShapes.size());
    shapes[index] = Shape();
    for (std::int64_t d : call.inputShapes[index])
        shapes[index].AppendDim(d);
    return &shapes[index];
}
Shape* InferShapeContext::GetOutputShape(const std::size_t index)
{
    auto& call = callOf(this);
    return index < call.outputShapes.size() ? &call.outputShapes[index] : nullptr;
}
// The desc of input k is its dtype's slot in the call: GetDataType reads it back.
const CompileTimeTensorDesc* InferShapeContext::GetInputDesc(const std::size_t index) const
{
    const auto& call = callOf(this);
    return index < call.inputDTypes.size() ? static_cast<const CompileTimeTensorDesc*>(
                                                 static_cast<const void*>(&call.inputDTypes[index]))
                                           : nullptr;
}
const RuntimeAttrs* InferShapeContext::GetAttrs() const
{
    bound()[&attrsObject()] = &callOf(this);
    return &attrsObject();
}

ge::DataType InferDataTypeContext::GetInputDataType(const std::size_t index) const
{
    const auto& call = callOf(this);
    return index < call.inputDTypes.size() ? call.inputDTypes[index] : ge::DT_UNDEFINED;
}
ge::graphStatus InferDataTypeContext::SetOutputDataType(const std::size_t index,
                                                        const ge::DataType datatype)
{
    auto& call = callOf(this);
    if (index >= call.outputDTypes.size()) return ge::GRAPH_FAILED;
    call.outputDTypes[index] = datatype;
    return ge::GRAPH_SUCCESS;
}
const RuntimeAttrs* InferDataTypeContext::GetAttrs() const
{
    bound()[&attrsObject()] = &callOf(this);
    return &attrsObject();
}

} // namespace gert

namespace ptowb_test {

RuntimeAttr absent()
{
    RuntimeAttr a;
    a.kind = RuntimeAttr::Absent;
    a.b = false, a.i = 0, a.f = 0;
    return a;
}
RuntimeAttr attrBool(bool v)
{
    RuntimeAttr a = absent();
    return a.kind = RuntimeAttr::Bool, a.b = v, a;
}
RuntimeAttr attrInt(std::int64_t v)
{
    RuntimeAttr a = absent();
    return a.kind = RuntimeAttr::Int, a.i = v, a;
}
RuntimeAttr attrFloat(float v)
{
    RuntimeAttr a = absent();
    return a.kind = RuntimeAttr::Float, a.f = v, a;
}
RuntimeAttr attrStr(const std::string& v)
{
    RuntimeAttr a = absent();
    return a.kind = RuntimeAttr::Str, a.s = v, a;
}
RuntimeAttr attrInts(const std::vector<std::int64_t>& v)
{
    RuntimeAttr a = absent();
    return a.kind = RuntimeAttr::Ints, a.ints = v, a;
}
RuntimeAttr attrFloats(const std::vector<float>& v)
{
    RuntimeAttr a = absent();
    return a.kind = RuntimeAttr::Floats, a.floats = v, a;
}

ge::graphStatus callInferShape(gert::OpImplKernelRegistry::InferShapeKernelFunc f,
                               RuntimeCall& call)
{
    gert::InferShapeContext context;
    call.outputShapes.assign(call.outputs, gert::Shape());
    gert::bound()[&context] = &call;
    return f(&context);
}
ge::graphStatus callInferDataType(gert::OpImplKernelRegistry::InferDataTypeKernelFunc f,
                                  RuntimeCall& call)
{
    gert::InferDataTypeContext context;
    call.outputDTypes.assign(call.outputs, ge::DT_UNDEFINED);
    gert::bound()[&context] = &call;
    return f(&context);
}

std::string dimsText(const std::vector<std::int64_t>& dims)
{
    std::ostringstream out;
    out << "[";
    for (std::size_t k = 0; k < dims.size(); ++k)
        out << (k ? ", " : "") << dims[k];
    out << "]";
    return out.str();
}
std::string dimsText(const gert::Shape& shape)
{
    std::vector<std::int64_t> dims;
    for (std::size_t k = 0; k < shape.GetDimNum(); ++k)
        dims.push_back(shape.GetDim(k));
    return dimsText(dims);
}

} // namespace ptowb_test
