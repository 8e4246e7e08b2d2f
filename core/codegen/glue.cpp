#include "codegen/glue.h"

namespace ptowb::codegen {

std::vector<GeneratedFile> generateGlue(const GlueSource& source)
{
    std::vector<GeneratedFile> files;
    for (auto* generate : {&generatePythonGlue, &generateTorchLibrary, &generateOnnxSchema,
                           &generateCannDescription}) {
        auto part = generate(source);
        files.insert(files.end(), std::make_move_iterator(part.begin()),
                     std::make_move_iterator(part.end()));
    }
    return files;
}

} // namespace ptowb::codegen
