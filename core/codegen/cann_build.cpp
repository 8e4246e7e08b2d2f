// cann/CMakeLists.txt (templates/cann_CMakeLists.txt.in): the graph-compiler libraries, built
// against a CANN toolkit and installed as a vendor folder of the opp, where GE and ATC look for
// custom ops.
//
// Facts the template relies on, from Ascend/metadef and Ascend/parser: GE loads every .so under
// <vendor>/op_proto/lib/<os>/<arch>/ (graph/opsproto/opsproto_manager.cc) and every .so under
// <vendor>/framework/onnx/ for ONNX models (parser/common/tbe_plugin_loader.cc); vendors are
// the folders named by <opp>/vendors/config.ini (load_priority=...) or ASCEND_CUSTOM_OPP_PATH.
// Compile flags follow CANN's custom-op projects (intf_pub in msOpGen's cmake/intf.cmake):
// C++11, _GLIBCXX_USE_CXX11_ABI=0, hidden visibility; op_host is built with OP_PROTO_LIB so
// OP_ADD registers its InferShape/InferDataType with the runtime, linking rt2_registry whole.
#include "codegen/cann_parts.h"
#include "codegen/templates.h"
#include "text/template_text.h"

namespace ptowb::codegen::cann {

std::string cmakeLists(const Context& c)
{
    return fillTemplate(cannCMakeListsTemplate(),
                        {
                            {"HEADER", headerComment("#", c.facts)},
                            {"QUALIFIED", c.facts.qualifiedName},
                            {"PACKAGE", c.facts.packageName},
                            {"NAME", c.spec.name},
                            {"VENDOR", c.spec.ns},
                            {"ORIGIN", c.spec.ns + "::1::" + c.spec.opType},
                        });
}

} // namespace ptowb::codegen::cann
