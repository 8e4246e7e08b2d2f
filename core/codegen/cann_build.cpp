// cann/CMakeLists.txt: the graph-compiler libraries, built against a CANN toolkit and installed
// as a vendor folder of the opp, where GE and ATC look for custom ops.
#include "codegen/cann_parts.h"
#include "text/template_text.h"

namespace ptowb::codegen::cann {

namespace {

// Facts this relies on, from Ascend/metadef and Ascend/parser: GE loads every .so under
// <vendor>/op_proto/lib/<os>/<arch>/ (graph/opsproto/opsproto_manager.cc) and every .so under
// <vendor>/framework/onnx/ for ONNX models (parser/common/tbe_plugin_loader.cc); vendors are
// the folders named by <opp>/vendors/config.ini (load_priority=...) or ASCEND_CUSTOM_OPP_PATH.
// Compile flags follow CANN's custom-op projects (intf_pub in msOpGen's cmake/intf.cmake):
// C++11, _GLIBCXX_USE_CXX11_ABI=0, hidden visibility; op_host is built with OP_PROTO_LIB so
// OP_ADD registers its InferShape/InferDataType with the runtime, linking rt2_registry whole.
constexpr const char* kCMake = R"CMAKE(
# Builds the graph-compiler libraries of @QUALIFIED@ against a CANN toolkit:
#   cmake -S cann -B build-cann -DASCEND_HOME_PATH=<toolkit> && cmake --build build-cann
#   cmake --install build-cann        # into <opp>/vendors/@VENDOR@ unless CMAKE_INSTALL_PREFIX says otherwise
cmake_minimum_required(VERSION 3.16)
project(@PACKAGE@_cann LANGUAGES CXX)

# CANN's custom-op projects compile host code as C++11 with the old libstdc++ ABI: the ABI of
# the CANN libraries linked here.
set(CMAKE_CXX_STANDARD 11)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_POSITION_INDEPENDENT_CODE ON)
set(CMAKE_CXX_VISIBILITY_PRESET hidden)
set(CMAKE_VISIBILITY_INLINES_HIDDEN ON)
add_compile_definitions(_GLIBCXX_USE_CXX11_ABI=0)

set(ASCEND_HOME_PATH "$ENV{ASCEND_HOME_PATH}" CACHE PATH "the CANN toolkit (set_env.sh sets ASCEND_HOME_PATH)")
if(NOT EXISTS "${ASCEND_HOME_PATH}/include/graph/operator_reg.h")
  message(FATAL_ERROR "ASCEND_HOME_PATH ('${ASCEND_HOME_PATH}') is not a CANN toolkit: source <toolkit>/set_env.sh or pass -DASCEND_HOME_PATH=<toolkit>")
endif()
set(ASCEND_INCLUDE_DIR "${ASCEND_HOME_PATH}/include")
foreach(lib graph register exe_graph)
  find_library(ASCEND_${lib}_LIBRARY NAMES ${lib} PATHS "${ASCEND_HOME_PATH}/lib64" NO_DEFAULT_PATH)
  if(NOT ASCEND_${lib}_LIBRARY)
    message(FATAL_ERROR "lib${lib}.so is not in ${ASCEND_HOME_PATH}/lib64")
  endif()
endforeach()
find_library(ASCEND_rt2_registry_LIBRARY NAMES librt2_registry.a PATHS "${ASCEND_HOME_PATH}/lib64" NO_DEFAULT_PATH)

set(PTOWB_VENDOR "@VENDOR@" CACHE STRING "the vendor folder under <opp>/vendors")
if(CMAKE_INSTALL_PREFIX_INITIALIZED_TO_DEFAULT)
  set(opp "$ENV{ASCEND_OPP_PATH}")
  if(NOT opp)
    set(opp "${ASCEND_HOME_PATH}/opp")
  endif()
  set(CMAKE_INSTALL_PREFIX "${opp}/vendors/${PTOWB_VENDOR}" CACHE PATH "the vendor folder to install into" FORCE)
endif()

# op_proto: REG_OP and the graph's InferShape.
add_library(@PACKAGE@_op_proto SHARED op_proto/@NAME@_proto.cc)
target_include_directories(@PACKAGE@_op_proto PRIVATE op_proto "${ASCEND_INCLUDE_DIR}")
target_link_libraries(@PACKAGE@_op_proto PRIVATE "${ASCEND_graph_LIBRARY}")

# op_host: the OpDef; with OP_PROTO_LIB, OP_ADD registers the runtime's InferShape/InferDataType.
add_library(@PACKAGE@_op_host SHARED op_host/@NAME@.cpp)
target_compile_definitions(@PACKAGE@_op_host PRIVATE OP_PROTO_LIB)
target_include_directories(@PACKAGE@_op_host PRIVATE "${ASCEND_INCLUDE_DIR}")
target_link_libraries(@PACKAGE@_op_host PRIVATE "${ASCEND_exe_graph_LIBRARY}" "${ASCEND_register_LIBRARY}" "${ASCEND_graph_LIBRARY}")
if(ASCEND_rt2_registry_LIBRARY)
  target_link_libraries(@PACKAGE@_op_host PRIVATE -Wl,--whole-archive "${ASCEND_rt2_registry_LIBRARY}" -Wl,--no-whole-archive)
endif()

# framework/onnx: the plugin ATC's ONNX parser (--framework=5) calls for @ORIGIN@ nodes.
add_library(@PACKAGE@_onnx_plugin SHARED framework/onnx_plugin/@NAME@_plugin.cc)
target_include_directories(@PACKAGE@_onnx_plugin PRIVATE "${ASCEND_INCLUDE_DIR}")
target_link_libraries(@PACKAGE@_onnx_plugin PRIVATE "${ASCEND_register_LIBRARY}" "${ASCEND_graph_LIBRARY}")

install(TARGETS @PACKAGE@_op_proto @PACKAGE@_op_host LIBRARY DESTINATION op_proto/lib/linux/${CMAKE_SYSTEM_PROCESSOR})
install(FILES op_proto/@NAME@_proto.h DESTINATION op_proto/inc)
install(TARGETS @PACKAGE@_onnx_plugin LIBRARY DESTINATION framework/onnx)
)CMAKE";

} // namespace

std::string cmakeLists(const Context& c)
{
    return headerComment("#", c.facts) +
           fillTemplate(kCMake, {
                                    {"QUALIFIED", c.facts.qualifiedName},
                                    {"PACKAGE", c.facts.packageName},
                                    {"NAME", c.spec.name},
                                    {"VENDOR", c.spec.ns},
                                    {"ORIGIN", c.spec.ns + "::1::" + c.spec.opType},
                                });
}

} // namespace ptowb::codegen::cann
