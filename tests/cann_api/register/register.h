#ifndef PTOWB_CANN_API_REGISTER_REGISTER_H
#define PTOWB_CANN_API_REGISTER_REGISTER_H

// The framework-plugin registration of register/register.h, register_error_codes.h and
// register_fmk_types.h: REGISTER_CUSTOM_OP and what an ONNX parse function returns.
#include "graph/ascend_string.h"
#include "graph/operator.h"
#include "graph/types.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace domi {

using Status = std::uint32_t;
constexpr Status SUCCESS = 0U;
constexpr Status FAILED = 0xFFFFFFFFU;

enum FrameworkType
{
    CAFFE = 0,
    MINDSPORE = 1,
    TENSORFLOW = 3,
    ANDROID_NN = 4,
    ONNX = 5,
    FRAMEWORK_RESERVED = 6
};

using ParseParamByOpFunc = std::function<Status(const ge::Operator&, ge::Operator&)>;

class OpRegistrationDataImpl;
class OpRegistrationData
{
public:
    PTOWB_CANN_API_DEPRECATED OpRegistrationData(const std::string& om_optype);
    OpRegistrationData(const ge::char_t* om_optype);
    ~OpRegistrationData();
    OpRegistrationData& FrameworkType(const domi::FrameworkType& fmk_type);
    PTOWB_CANN_API_DEPRECATED OpRegistrationData&
    OriginOpType(const std::initializer_list<std::string>& ori_optype_list);
    OpRegistrationData& OriginOpType(const std::vector<ge::AscendString>& ori_op_type_list);
    PTOWB_CANN_API_DEPRECATED OpRegistrationData& OriginOpType(const std::string& ori_optype);
    OpRegistrationData& OriginOpType(const ge::char_t* ori_op_type);
    OpRegistrationData& ParseParamsByOperatorFn(const ParseParamByOpFunc& parse_param_by_op_fn);
    OpRegistrationData& ImplyType(const domi::ImplyType& imply_type);

private:
    std::shared_ptr<OpRegistrationDataImpl> impl_;
};

class OpReceiver
{
public:
    OpReceiver(OpRegistrationData& reg_data);
    ~OpReceiver() = default;
};

} // namespace domi

#define PTOWB_CANN_API_REGISTER_PASTE(ctr, name)                                                   \
    static OpReceiver register_op##ctr __attribute__((unused)) = OpRegistrationData(name)
#define PTOWB_CANN_API_REGISTER_UNIQ(ctr, name) PTOWB_CANN_API_REGISTER_PASTE(ctr, name)
#define REGISTER_CUSTOM_OP(name) PTOWB_CANN_API_REGISTER_UNIQ(__COUNTER__, (name))

#endif
