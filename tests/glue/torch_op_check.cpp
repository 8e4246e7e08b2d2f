// Runs a built op library of an exported package for real, with libtorch:
//   torch_op_check LIBRARY PACKAGE_DIR QUALIFIED_NAME [MODEL.pt]
// For every case of tests/cases.json the CPU kernel must equal the reference's golden output
// and the Meta kernel must give the golden shapes and dtypes; a TorchScript model saved by
// Python (traced on the first case) must load and run. Prints 'N passed, M failed'.
#include "tensor/npy.h"
#include "torchscript/torchscript.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <torch/script.h>

namespace {

int g_passed = 0, g_failed = 0;

void check(const std::string& name, bool ok, const std::string& detail = {})
{
    (ok ? g_passed : g_failed)++;
    std::cout << (ok ? "PASS " : "FAIL ") << name << (ok ? "" : " " + detail) << '\n';
}

at::Tensor loadTensor(const std::string& path)
{
    auto loaded = ptowb::readNpy(path);
    if (auto* error = std::get_if<std::string>(&loaded)) throw std::runtime_error(*error);
    return ptowb::torchscript::toAten(std::get<ptowb::Tensor>(loaded));
}

c10::IValue paramValue(const c10::Argument& arg, const nlohmann::json& value)
{
    switch (arg.type()->kind()) {
    case c10::TypeKind::BoolType:
        return value.get<bool>();
    case c10::TypeKind::IntType:
        return value.get<std::int64_t>();
    case c10::TypeKind::FloatType:
        return value.get<double>();
    case c10::TypeKind::StringType:
        return value.get<std::string>();
    case c10::TypeKind::ListType:
        if (arg.type()->containedType(0)->kind() == c10::TypeKind::IntType)
            return value.get<std::vector<std::int64_t>>();
        return value.get<std::vector<double>>();
    default:
        throw std::runtime_error("unexpected argument type " + arg.type()->str());
    }
}

std::vector<at::Tensor> tensorsOf(const std::vector<c10::IValue>& values)
{
    std::vector<at::Tensor> out;
    for (const auto& v : values) {
        if (v.isTensor())
            out.push_back(v.toTensor());
        else
            for (const auto& e : v.toTupleRef().elements())
                out.push_back(e.toTensor());
    }
    return out;
}

// The reference reproduces the golden bit for bit up to float noise; the kernel in the
// simulator rounds per op in fp16/bf16, so it gets that dtype's tolerance.
bool close(const at::Tensor& a, const at::Tensor& b)
{
    const char* backend = std::getenv("PTOWB_BACKEND");
    const bool sim = backend && std::string(backend) == "sim";
    const bool low = a.scalar_type() == at::kHalf || a.scalar_type() == at::kBFloat16;
    const double tol = !sim ? 1e-5 : low ? 1e-2 : 1e-4;
    return a.sizes() == b.sizes() && a.scalar_type() == b.scalar_type() &&
           at::allclose(a.to(at::kDouble), b.to(at::kDouble), tol, tol, true);
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 4) {
        std::cerr << "usage: torch_op_check LIBRARY PACKAGE_DIR QUALIFIED_NAME [MODEL.pt]\n";
        return 2;
    }
    const std::string package = argv[2];
    if (!dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL)) {
        std::cerr << "cannot load " << argv[1] << ": " << dlerror() << '\n';
        return 2;
    }
    try {
        const auto op = c10::Dispatcher::singleton().findSchemaOrThrow(argv[3], "");
        const auto& arguments = op.schema().arguments();
        std::ifstream casesFile(package + "/tests/cases.json");
        const auto cases =
            nlohmann::ordered_json::parse(casesFile)["cases"]; // inputs in the op's order
        std::vector<at::Tensor> firstInputs, firstGoldens;
        bool first = true;
        for (const auto& c : cases) {
            std::vector<at::Tensor> inputs, goldens;
            for (const auto& [name, entry] : c["inputs"].items())
                inputs.push_back(loadTensor(package + "/" + entry["file"].get<std::string>()));
            for (const auto& [name, entry] : c["outputs"].items())
                goldens.push_back(loadTensor(package + "/" + entry["file"].get<std::string>()));
            std::ifstream paramsFile(package + "/" + c["parameters"].get<std::string>());
            const auto params = nlohmann::json::parse(paramsFile);
            auto call = [&](const std::vector<at::Tensor>& tensors) {
                std::vector<c10::IValue> stack;
                for (std::size_t k = 0; k < arguments.size(); ++k)
                    stack.push_back(k < tensors.size()
                                        ? c10::IValue(tensors[k])
                                        : paramValue(arguments[k], params.at(arguments[k].name())));
                op.callBoxed(stack);
                return tensorsOf(stack);
            };
            const auto outputs = call(inputs);
            bool same = outputs.size() == goldens.size();
            for (std::size_t k = 0; same && k < outputs.size(); ++k)
                same = close(outputs[k], goldens[k]);
            check(std::string(std::getenv("PTOWB_BACKEND") ? std::getenv("PTOWB_BACKEND") : "ref") +
                      " cpu kernel matches the reference golden: " + c["name"].get<std::string>(),
                  same);
            // An op that reads no tensor has no meta tensor to dispatch on.
            if (!inputs.empty()) {
                std::vector<at::Tensor> metaInputs;
                for (const auto& t : inputs)
                    metaInputs.push_back(t.to(at::kMeta));
                const auto metas = call(metaInputs);
                bool shapes = metas.size() == goldens.size();
                for (std::size_t k = 0; shapes && k < metas.size(); ++k)
                    shapes = metas[k].is_meta() && metas[k].sizes() == goldens[k].sizes() &&
                             metas[k].scalar_type() == goldens[k].scalar_type();
                check("meta kernel gives the rule shapes: " + c["name"].get<std::string>(), shapes);
            }
            if (first) {
                firstInputs = inputs;
                firstGoldens = goldens;
                first = false;
            }
        }
        if (argc > 4) {
            torch::jit::Module model = torch::jit::load(argv[4]);
            std::vector<c10::IValue> inputs(firstInputs.begin(), firstInputs.end());
            const auto outputs = tensorsOf({model.forward(inputs)});
            bool same = outputs.size() == firstGoldens.size();
            for (std::size_t k = 0; same && k < outputs.size(); ++k)
                same = close(outputs[k], firstGoldens[k]);
            check("TorchScript model saved by Python runs in C++", same);
        }
    } catch (const std::exception& e) {
        check("no exception", false, e.what());
    }
    std::cout << g_passed << " passed, " << g_failed << " failed\n";
    return g_failed ? 1 : 0;
}
