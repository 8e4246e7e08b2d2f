#pragma once

#include "spec/op_spec.h"

#include <string>
#include <utility>
#include <vector>

namespace ptowb::codegen {

// Everything the glue is generated from: the loaded description (without errors) and the
// texts whose hashes go into every file header and ONNX record.
struct GlueSource
{
    const OpSpec& spec;
    std::string opJson;
    std::string kernel;
    std::string reference;
    // The project's modules the kernel file imports (kernel::kernelModules): each one's path in
    // the project and its text. The C++ library's sim backend writes them beside the kernel.
    std::vector<std::pair<std::string, std::string>> kernelModules = {};
};

struct GeneratedFile
{
    std::string path; // relative, '/'-separated: "python/pto_scale_gelu/__init__.py"
    std::string content;
};

// All glue of DESIGN §9 (python/, torch/, onnx/, cann/), in a fixed order. Deterministic:
// the same source gives byte-identical files.
std::vector<GeneratedFile> generateGlue(const GlueSource& source);

std::vector<GeneratedFile> generatePythonGlue(const GlueSource& source);
std::vector<GeneratedFile> generateTorchLibrary(const GlueSource& source);
std::vector<GeneratedFile> generateOnnxSchema(const GlueSource& source);
std::vector<GeneratedFile> generateCannDescription(const GlueSource& source);
// The graph compiler's view of the op, which every CANN file is generated from: a mutated input
// is a ref tensor, an input and an output of the same name (as CANN's own Assign declares
// `ref`), the output after the op's outputs, with the input's shape and dtype.
OpSpec graphCompilerSpec(const OpSpec& spec);

// Where the kernel file is in a package's kernel/ folder: at its path in the project, so that the
// project's folders around it (its package, the modules it imports) keep their places.
std::string packagedKernelFile(const OpSpec& spec);

// README.md of an exported package: what is in it and how to build, load and run the op.
std::string generatePackageReadme(const GlueSource& source);

} // namespace ptowb::codegen
