// Runs a built ONNX schema library of an exported package: registers the schema through the
// generated function, shape-infers a model and prints every value as `ptowb-cli onnx-infer`
// does, so a test can compare the two inferences line by line.
//   onnx_schema_check LIBRARY REGISTER_FUNCTION MODEL.onnx
#include "onnxmodel/onnx_model.h"

#include <dlfcn.h>
#include <iostream>

int main(int argc, char** argv)
{
    if (argc != 4) {
        std::cerr << "usage: onnx_schema_check LIBRARY REGISTER_FUNCTION MODEL.onnx\n";
        return 2;
    }
    void* library = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);
    if (!library) {
        std::cerr << dlerror() << '\n';
        return 2;
    }
    auto registerSchema = reinterpret_cast<void (*)()>(dlsym(library, argv[2]));
    if (!registerSchema) {
        std::cerr << "no function " << argv[2] << " in " << argv[1] << '\n';
        return 2;
    }
    registerSchema();
    auto loaded = ptowb::onnxtools::OnnxModel::load(argv[3]);
    if (auto* error = std::get_if<std::string>(&loaded)) {
        std::cerr << *error << '\n';
        return 2;
    }
    auto& model = std::get<ptowb::onnxtools::OnnxModel>(loaded);
    if (const std::string error = model.inferShapes(); !error.empty()) {
        std::cerr << error << '\n';
        return 1;
    }
    for (const auto& line : model.describeValues())
        std::cout << line << '\n';
    return 0;
}
