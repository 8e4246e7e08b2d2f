#ifndef PTOWB_CANN_API_GRAPH_OPERATOR_H
#define PTOWB_CANN_API_GRAPH_OPERATOR_H

// ge::Operator (graph/operator.h): the overload sets generated code calls, with the same
// deprecations as CANN's header, so a call that picks a deprecated overload warns here too.
#include "graph/ascend_string.h"
#include "graph/tensor.h"
#include "graph/types.h"

#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#define PTOWB_CANN_API_DEPRECATED __attribute__((deprecated))

namespace ge {

class TensorType;
class OperatorImpl;

class Operator
{
public:
    using OpInt = std::int64_t;
    using OpFloat = float32_t;
    using OpString = std::string;
    using OpAscendString = AscendString;
    using OpBool = bool;
    using OpType = DataType;
    using OpListInt = std::vector<std::int64_t>;
    using OpListFloat = std::vector<float32_t>;
    using OpListString = std::vector<std::string>;
    using OpListBool = std::vector<bool>;

    Operator() {}
    explicit Operator(const char_t* type);
    Operator(const char_t* name, const char_t* type);
    Operator(const AscendString& name, const char_t* type);
    PTOWB_CANN_API_DEPRECATED explicit Operator(const std::string& type);
    virtual ~Operator() = default;

    graphStatus GetName(AscendString& name) const;
    graphStatus GetOpType(AscendString& type) const;

    TensorDesc GetInputDescByName(const char_t* name) const;
    PTOWB_CANN_API_DEPRECATED TensorDesc GetInputDesc(const std::string& name) const;
    TensorDesc GetInputDesc(std::uint32_t index) const;
    graphStatus UpdateInputDesc(const char_t* name, const TensorDesc& tensor_desc);
    TensorDesc GetOutputDescByName(const char_t* name) const;
    PTOWB_CANN_API_DEPRECATED TensorDesc GetOutputDesc(const std::string& name) const;
    PTOWB_CANN_API_DEPRECATED graphStatus UpdateOutputDesc(const std::string& name,
                                                           const TensorDesc& tensor_desc);
    graphStatus UpdateOutputDesc(const char_t* name, const TensorDesc& tensor_desc);

    PTOWB_CANN_API_DEPRECATED Operator& SetAttr(const std::string& name, std::int64_t attr_value);
    PTOWB_CANN_API_DEPRECATED graphStatus GetAttr(const std::string& name,
                                                  std::int64_t& attr_value) const;
    PTOWB_CANN_API_DEPRECATED Operator& SetAttr(const std::string& name, float32_t attr_value);
    PTOWB_CANN_API_DEPRECATED graphStatus GetAttr(const std::string& name,
                                                  float32_t& attr_value) const;
    PTOWB_CANN_API_DEPRECATED Operator& SetAttr(const std::string& name, bool attr_value);
    PTOWB_CANN_API_DEPRECATED graphStatus GetAttr(const std::string& name, bool& attr_value) const;
    Operator& SetAttr(const std::string& name, const std::string& attr_value);
    graphStatus GetAttr(const std::string& name, std::string& attr_value) const;

    Operator& SetAttr(const char_t* name, std::int64_t attr_value);
    Operator& SetAttr(const char_t* name, std::int32_t attr_value);
    Operator& SetAttr(const char_t* name, std::uint32_t attr_value);
    graphStatus GetAttr(const char_t* name, std::int64_t& attr_value) const;
    graphStatus GetAttr(const char_t* name, std::int32_t& attr_value) const;
    graphStatus GetAttr(const char_t* name, std::uint32_t& attr_value) const;
    Operator& SetAttr(const char_t* name, const std::vector<std::int64_t>& attr_value);
    Operator& SetAttr(const char_t* name, const std::vector<std::int32_t>& attr_value);
    Operator& SetAttr(const char_t* name, std::initializer_list<std::int64_t>&& attr_value);
    graphStatus GetAttr(const char_t* name, std::vector<std::int64_t>& attr_value) const;
    graphStatus GetAttr(const char_t* name, std::vector<std::int32_t>& attr_value) const;
    Operator& SetAttr(const char_t* name, float32_t attr_value);
    graphStatus GetAttr(const char_t* name, float32_t& attr_value) const;
    Operator& SetAttr(const char_t* name, const std::vector<float32_t>& attr_value);
    graphStatus GetAttr(const char_t* name, std::vector<float32_t>& attr_value) const;
    Operator& SetAttr(const char_t* name, const char_t* attr_value);
    Operator& SetAttr(const char_t* name, const AscendString& attr_value);
    graphStatus GetAttr(const char_t* name, AscendString& attr_value) const;
    Operator& SetAttr(const char_t* name, const std::vector<AscendString>& attr_values);
    graphStatus GetAttr(const char_t* name, std::vector<AscendString>& attr_values) const;
    Operator& SetAttr(const char_t* name, bool attr_value);
    graphStatus GetAttr(const char_t* name, bool& attr_value) const;
    Operator& SetAttr(const char_t* name, const std::vector<bool>& attr_value);
    graphStatus GetAttr(const char_t* name, std::vector<bool>& attr_value) const;

protected:
    // What REG_OP's expansion calls while it builds the prototype.
    void InputRegister(const char_t* name, const TensorType& types);
    void OutputRegister(const char_t* name, const TensorType& types);
    void AttrRegister(const char_t* name, std::int64_t attr_value);
    void AttrRegister(const char_t* name, float32_t attr_value);
    void AttrRegister(const char_t* name, bool attr_value);
    void AttrRegister(const char_t* name, const std::string& attr_value);
    void AttrRegister(const char_t* name, const std::vector<std::int64_t>& attr_value);
    void AttrRegister(const char_t* name, const std::vector<float32_t>& attr_value);
    void RequiredAttrWithTypeRegister(const char_t* name, const char_t* type);

private:
    std::shared_ptr<OperatorImpl> operator_impl_;
};

} // namespace ge

#endif
