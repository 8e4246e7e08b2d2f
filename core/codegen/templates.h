#pragma once

// The text of every generated file, from core/codegen/templates/<name>.in, embedded at build
// time. One substitution style throughout (text/template_text.h): @KEY@ is a value, and a
// generated section (one line per input, a function body) is a named block such as
// @INFER_SHAPE@, which the generator builds and which ends with its last line's newline.
namespace ptowb::codegen {

const char* referenceResolverText(); // core/torchscript/reference_resolver.h
const char* kernelMakerText();       // core/worker/python/_ptowb_kernel_maker.py

const char* pythonModuleTemplate();           // python/<package>/__init__.py
const char* pythonRulePreludeTemplate();      // the rule helpers every Python module defines
const char* torchOpTemplate();                // torch/<name>_op.cpp
const char* torchKernelArgumentsTemplate();   // its setKernelArguments, when op.json has any
const char* torchCMakeListsTemplate();        // torch/CMakeLists.txt
const char* onnxSchemaHeaderTemplate();       // onnx/<package>_schema.h
const char* onnxSchemaSourceTemplate();       // onnx/<package>_schema.cc
const char* onnxCMakeListsTemplate();         // onnx/CMakeLists.txt
const char* cannCMakeListsTemplate();         // cann/CMakeLists.txt
const char* cannOpProtoHeaderTemplate();      // cann/op_proto/<name>_proto.h
const char* cannOpProtoSourceTemplate();      // cann/op_proto/<name>_proto.cc
const char* cannOpHostTemplate();             // cann/op_host/<name>.cpp
const char* cannRuleSupportTemplate();        // cann/op_host/<name>_rule_support.h
const char* cannOnnxPluginTemplate();         // cann/framework/onnx_plugin/<name>_plugin.cc
const char* cannOpInfoTemplate();             // cann/op_info/<name>.ini
const char* cppRuleSupportTemplate();         // the ptowb_Rt rule support of the C++11 glue
const char* cppRuleSupportIncludesTemplate(); // the standard headers that support needs
const char* packageReadmeTemplate();          // README.md of an exported package

} // namespace ptowb::codegen
