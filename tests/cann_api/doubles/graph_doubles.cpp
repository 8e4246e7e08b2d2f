// Doubles of the graph API (ge::AscendString, Shape, TensorDesc, Operator, the REG_OP and
// infer-function registries) and of domi's plugin registry. An Operator keeps its attributes
// by name and type, so a getter of another type fails as CANN's does.
#include "cann_doubles.h"

#include <map>
#include <memory>

namespace ge {

AscendString::AscendString(const char_t* const name)
    : name_(std::make_shared<std::string>(name != nullptr ? name : ""))
{
}
AscendString::AscendString(const char_t* const name, std::size_t length)
    : name_(std::make_shared<std::string>(name, length))
{
}
const char_t* AscendString::GetString() const
{
    return name_ ? name_->c_str() : "";
}
std::size_t AscendString::GetLength() const
{
    return name_ ? name_->size() : 0;
}
bool AscendString::operator<(const AscendString& d) const
{
    return std::string(GetString(), GetLength()) < std::string(d.GetString(), d.GetLength());
}
bool AscendString::operator==(const AscendString& d) const
{
    return std::string(GetString(), GetLength()) == std::string(d.GetString(), d.GetLength());
}
bool AscendString::operator==(const char_t* const d) const
{
    return std::string(GetString(), GetLength()) == d;
}

class ShapeImpl
{
public:
    std::vector<std::int64_t> dims;
};
Shape::Shape() : impl_(std::make_shared<ShapeImpl>()) {}
Shape::Shape(const std::vector<std::int64_t>& dims) : impl_(std::make_shared<ShapeImpl>())
{
    impl_->dims = dims;
}
std::size_t Shape::GetDimNum() const
{
    return impl_->dims.size();
}
std::int64_t Shape::GetDim(std::size_t idx) const
{
    return idx < impl_->dims.size() ? impl_->dims[idx] : 0;
}
std::vector<std::int64_t> Shape::GetDims() const
{
    return impl_->dims;
}

class TensorDescImpl
{
public:
    Shape shape;
    DataType dtype = DT_UNDEFINED;
};
TensorDesc::TensorDesc() : impl(std::make_shared<TensorDescImpl>()) {}
TensorDesc::TensorDesc(Shape shape, Format, DataType dt) : impl(std::make_shared<TensorDescImpl>())
{
    impl->shape = shape;
    impl->dtype = dt;
}
Shape TensorDesc::GetShape() const
{
    return impl->shape;
}
void TensorDesc::SetShape(const Shape& shape)
{
    impl->shape = shape;
}
graphStatus TensorDesc::SetUnknownDimNumShape()
{
    impl->shape = Shape(UNKNOWN_RANK);
    return GRAPH_SUCCESS;
}
DataType TensorDesc::GetDataType() const
{
    return impl->dtype;
}
void TensorDesc::SetDataType(DataType dt)
{
    impl->dtype = dt;
}

TensorType::TensorType(DataType) {}
TensorType::TensorType(const std::initializer_list<DataType>&) {}

// One attribute value, tagged with the type it was set as.
struct AttrValue
{
    std::string kind;
    std::int64_t i = 0;
    float f = 0;
    bool b = false;
    std::string s;
    std::vector<std::int64_t> ints;
    std::vector<float> floats;
};

class OperatorImpl
{
public:
    std::string name, type;
    std::map<std::string, AttrValue> attrs;
    std::map<std::string, TensorDesc> inputs, outputs;
};

Operator::Operator(const char_t* type) : operator_impl_(std::make_shared<OperatorImpl>())
{
    operator_impl_->type = type;
}
Operator::Operator(const char_t* name, const char_t* type) : Operator(type)
{
    operator_impl_->name = name;
}
Operator::Operator(const AscendString& name, const char_t* type) : Operator(type)
{
    operator_impl_->name = name.GetString();
}

graphStatus Operator::GetOpType(AscendString& type) const
{
    type = AscendString(operator_impl_->type.c_str());
    return GRAPH_SUCCESS;
}
graphStatus Operator::GetName(AscendString& name) const
{
    name = AscendString(operator_impl_->name.c_str());
    return GRAPH_SUCCESS;
}

TensorDesc Operator::GetInputDescByName(const char_t* name) const
{
    auto it = operator_impl_->inputs.find(name);
    return it == operator_impl_->inputs.end() ? TensorDesc() : it->second;
}
graphStatus Operator::UpdateInputDesc(const char_t* name, const TensorDesc& tensor_desc)
{
    operator_impl_->inputs[name] = tensor_desc;
    return GRAPH_SUCCESS;
}
TensorDesc Operator::GetOutputDescByName(const char_t* name) const
{
    auto it = operator_impl_->outputs.find(name);
    return it == operator_impl_->outputs.end() ? TensorDesc() : it->second;
}
graphStatus Operator::UpdateOutputDesc(const char_t* name, const TensorDesc& tensor_desc)
{
    operator_impl_->outputs[name] = tensor_desc;
    return GRAPH_SUCCESS;
}

namespace {

template <class T>
graphStatus fetch(const OperatorImpl& impl, const char* name, const char* kind, T AttrValue::*field,
                  T& out)
{
    auto it = impl.attrs.find(name);
    if (it == impl.attrs.end() || it->second.kind != kind) return GRAPH_FAILED;
    out = it->second.*field;
    return GRAPH_SUCCESS;
}
template <class T>
void store(OperatorImpl& impl, const char* name, const char* kind, T AttrValue::*field,
           const T& value)
{
    AttrValue v;
    v.kind = kind;
    v.*field = value;
    impl.attrs[name] = v;
}

} // namespace

Operator& Operator::SetAttr(const char_t* name, std::int64_t v)
{
    return store(*operator_impl_, name, "int", &AttrValue::i, v), *this;
}
graphStatus Operator::GetAttr(const char_t* name, std::int64_t& v) const
{
    return fetch(*operator_impl_, name, "int", &AttrValue::i, v);
}
Operator& Operator::SetAttr(const char_t* name, float32_t v)
{
    return store(*operator_impl_, name, "float", &AttrValue::f, v), *this;
}
graphStatus Operator::GetAttr(const char_t* name, float32_t& v) const
{
    return fetch(*operator_impl_, name, "float", &AttrValue::f, v);
}
Operator& Operator::SetAttr(const char_t* name, bool v)
{
    return store(*operator_impl_, name, "bool", &AttrValue::b, v), *this;
}
graphStatus Operator::GetAttr(const char_t* name, bool& v) const
{
    return fetch(*operator_impl_, name, "bool", &AttrValue::b, v);
}
Operator& Operator::SetAttr(const char_t* name, const std::vector<std::int64_t>& v)
{
    return store(*operator_impl_, name, "ints", &AttrValue::ints, v), *this;
}
graphStatus Operator::GetAttr(const char_t* name, std::vector<std::int64_t>& v) const
{
    return fetch(*operator_impl_, name, "ints", &AttrValue::ints, v);
}
Operator& Operator::SetAttr(const char_t* name, const std::vector<float32_t>& v)
{
    return store(*operator_impl_, name, "floats", &AttrValue::floats, v), *this;
}
graphStatus Operator::GetAttr(const char_t* name, std::vector<float32_t>& v) const
{
    return fetch(*operator_impl_, name, "floats", &AttrValue::floats, v);
}
Operator& Operator::SetAttr(const char_t* name, const char_t* v)
{
    return SetAttr(name, AscendString(v));
}
Operator& Operator::SetAttr(const char_t* name, const AscendString& v)
{
    return store(*operator_impl_, name, "string", &AttrValue::s,
                 std::string(v.GetString(), v.GetLength())),
           *this;
}
graphStatus Operator::GetAttr(const char_t* name, AscendString& v) const
{
    std::string s;
    if (fetch(*operator_impl_, name, "string", &AttrValue::s, s) != GRAPH_SUCCESS)
        return GRAPH_FAILED;
    v = AscendString(s.c_str(), s.size());
    return GRAPH_SUCCESS;
}
// The parser sets "attribute" through this overload (message2operator.cc); std::string and
// AscendString attributes are one kind.
Operator& Operator::SetAttr(const std::string& name, const std::string& v)
{
    return SetAttr(name.c_str(), AscendString(v.c_str(), v.size()));
}
graphStatus Operator::GetAttr(const std::string& name, std::string& v) const
{
    return fetch(*operator_impl_, name.c_str(), "string", &AttrValue::s, v);
}

void Operator::InputRegister(const char_t* name, const TensorType&)
{
    operator_impl_->inputs[name] = TensorDesc();
}
void Operator::OutputRegister(const char_t* name, const TensorType&)
{
    operator_impl_->outputs[name] = TensorDesc();
}
void Operator::AttrRegister(const char_t* name, std::int64_t v)
{
    SetAttr(name, v);
}
void Operator::AttrRegister(const char_t* name, float32_t v)
{
    SetAttr(name, v);
}
void Operator::AttrRegister(const char_t* name, bool v)
{
    SetAttr(name, v);
}
void Operator::AttrRegister(const char_t* name, const std::string& v)
{
    SetAttr(name, AscendString(v.c_str(), v.size()));
}
void Operator::AttrRegister(const char_t* name, const std::vector<std::int64_t>& v)
{
    SetAttr(name, v);
}
void Operator::AttrRegister(const char_t* name, const std::vector<float32_t>& v)
{
    SetAttr(name, v);
}
void Operator::RequiredAttrWithTypeRegister(const char_t*, const char_t*) {}

namespace {
std::map<std::string, OpCreatorV2>& creators()
{
    static std::map<std::string, OpCreatorV2> m;
    return m;
}
std::map<std::string, InferShapeFunc>& inferShapes()
{
    static std::map<std::string, InferShapeFunc> m;
    return m;
}
} // namespace

OperatorCreatorRegister::OperatorCreatorRegister(const char_t* type, const OpCreatorV2& creator)
{
    creators()[type] = creator;
}
InferShapeFuncRegister::InferShapeFuncRegister(const char_t* type, const InferShapeFunc& f)
{
    inferShapes()[type] = f;
}

} // namespace ge

namespace domi {

class OpRegistrationDataImpl
{
public:
    std::string omType;
    std::vector<std::string> origins;
    ParseParamByOpFunc parse;
};

namespace {
// Every registration, live: the chain after the constructor fills it in.
std::vector<std::shared_ptr<OpRegistrationDataImpl>>& registrations()
{
    static std::vector<std::shared_ptr<OpRegistrationDataImpl>> r;
    return r;
}
} // namespace

OpRegistrationData::OpRegistrationData(const ge::char_t* om_optype)
    : impl_(std::make_shared<OpRegistrationDataImpl>())
{
    impl_->omType = om_optype;
    registrations().push_back(impl_);
}
OpRegistrationData::~OpRegistrationData() {}
OpRegistrationData& OpRegistrationData::FrameworkType(const domi::FrameworkType&)
{
    return *this;
}
OpRegistrationData& OpRegistrationData::OriginOpType(const ge::char_t* type)
{
    return impl_->origins.push_back(type), *this;
}
OpRegistrationData& OpRegistrationData::ParseParamsByOperatorFn(const ParseParamByOpFunc& f)
{
    return impl_->parse = f, *this;
}
OpRegistrationData& OpRegistrationData::ImplyType(const domi::ImplyType&)
{
    return *this;
}
OpReceiver::OpReceiver(OpRegistrationData&) {}

} // namespace domi

namespace ptowb_test {

domi::ParseParamByOpFunc parseFunction(const std::string& origin)
{
    for (const auto& r : domi::registrations())
        for (const auto& o : r->origins)
            if (o == origin) return r->parse;
    return domi::ParseParamByOpFunc();
}

std::string parserOpType(const std::string& origin)
{
    for (const auto& r : domi::registrations())
        for (const auto& o : r->origins)
            if (o == origin) return r->omType;
    return std::string();
}

ge::InferShapeFunc inferShapeFunction(const std::string& opType)
{
    auto it = ge::inferShapes().find(opType);
    return it == ge::inferShapes().end() ? ge::InferShapeFunc() : it->second;
}

ge::Operator createOperator(const std::string& opType, const std::string& name)
{
    auto it = ge::creators().find(opType);
    return it == ge::creators().end() ? ge::Operator(name.c_str(), opType.c_str())
                                      : it->second(ge::AscendString(name.c_str()));
}

} // namespace ptowb_test
