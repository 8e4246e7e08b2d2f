#include "commands.h"
#include "onnxmodel/node_record.h"
#include "onnxmodel/onnx_model.h"
#include "package/package_identity.h"
#include "project/atomic_file.h"

#include <ostream>

namespace ptowb::cli {

namespace {

std::variant<onnxtools::OnnxModel, std::string> loadModelArgument(const CommandLine& cmd)
{
    return onnxtools::OnnxModel::load(cmd.positional[0]);
}

} // namespace

int runOnnxInfer(const CommandLine& cmd, std::ostream& out, std::ostream& err)
{
    const auto packages = cmd.values("package");
    if (cmd.positional.size() != 1 || packages.empty()) {
        err << "usage: ptowb-cli onnx-infer MODEL.onnx --package DIR [--package DIR]... [--out "
               "FILE]\n";
        return kUsageError;
    }
    auto loaded = loadModelArgument(cmd);
    if (auto* error = std::get_if<std::string>(&loaded)) {
        err << "ptowb-cli: " << *error << '\n';
        return kUsageError;
    }
    auto& model = std::get<onnxtools::OnnxModel>(loaded);
    const std::vector<onnxtools::CustomNode> nodes = model.customNodes();
    for (const std::string& package : packages) {
        auto loadedOp = loadPackageOp(package);
        if (const std::string* error = std::get_if<std::string>(&loadedOp)) {
            err << "ptowb-cli: " << *error << '\n';
            return kUsageError;
        }
        const SpecLoadResult& op = std::get<SpecLoadResult>(loadedOp);
        if (!op.usable()) {
            for (const Diagnostic& d : op.diagnostics)
                out << formatDiagnostic(d) << '\n';
            return kUsageError;
        }
        if (const std::string error = onnxtools::registerOpSchema(op.spec); !error.empty()) {
            err << "ptowb-cli: " << error << '\n';
            return kUsageError;
        }
        // A package whose op the model never calls infers nothing: say so rather than print
        // unknown shapes as a result.
        if (const std::string missing = onnxtools::missingOpNode(nodes, op.spec.ns, op.spec.opType);
            !missing.empty()) {
            err << "ptowb-cli: " << missing << " for the package " << package << '\n';
            return kFailure;
        }
    }
    if (const std::string error = model.inferShapes(); !error.empty()) {
        err << "ptowb-cli: " << error << '\n';
        return kFailure;
    }
    for (const std::string& line : model.describeValues())
        out << line << '\n';
    if (const auto outFiles = cmd.values("out"); !outFiles.empty()) {
        if (std::string error = writeFileAtomically(outFiles.back(), model.serialize());
            !error.empty()) {
            err << "ptowb-cli: " << error << '\n';
            return kUsageError;
        }
    }
    return kSuccess;
}

int runInspect(const CommandLine& cmd, std::ostream& out, std::ostream& err)
{
    if (cmd.positional.size() != 1) {
        err << "usage: ptowb-cli inspect MODEL.onnx [--package DIR]\n";
        return kUsageError;
    }
    auto loaded = loadModelArgument(cmd);
    if (auto* error = std::get_if<std::string>(&loaded)) {
        err << "ptowb-cli: " << *error << '\n';
        return kUsageError;
    }
    std::optional<onnxtools::PackageIdentity> package;
    if (const auto packages = cmd.values("package"); !packages.empty()) {
        auto read = readPackageIdentity(packages.back());
        if (const std::string* error = std::get_if<std::string>(&read)) {
            err << "ptowb-cli: " << *error << '\n';
            return kUsageError;
        }
        package = std::get<onnxtools::PackageIdentity>(read);
    }
    using Status = onnxtools::NodeRecordCheck::Status;
    const auto nodes = std::get<onnxtools::OnnxModel>(loaded).customNodes();
    bool mismatch = false;
    for (const auto& node : nodes) {
        out << (node.name.empty() ? std::string("(unnamed)") : node.name) << ": " << node.domain
            << "::" << node.opType;
        const onnxtools::NodeRecordCheck check =
            onnxtools::checkNodeRecord(node, package ? &*package : nullptr);
        switch (check.status) {
        case Status::NoRecord:
            out << " (no ptowb_record)";
            break;
        case Status::Unreadable:
            out << " (unreadable ptowb_record)";
            break;
        case Status::Unchecked:
            out << " " << check.summary;
            break;
        case Status::Matches:
            out << " " << check.summary << " — matches the package";
            break;
        case Status::OtherOp:
            out << " " << check.summary << " — another op than the package's";
            break;
        case Status::Differs:
            out << " " << check.summary << " — differs from the package:"
                << (check.descriptionChanged ? " op.json changed" : "")
                << (check.kernelChanged ? " kernel changed" : "");
            break;
        }
        out << '\n';
        // A node without a record may be another tool's; with a package, anything else that
        // does not match it fails.
        mismatch = mismatch || (package && check.mismatch() && check.status != Status::NoRecord);
    }
    if (nodes.empty()) out << "no custom nodes\n";
    return mismatch ? kFailure : kSuccess;
}

} // namespace ptowb::cli
