#include "commands.h"
#include "io/sha256.h"
#include "onnxmodel/onnx_model.h"
#include "package/package_export.h"
#include "project/atomic_file.h"
#include "spec/op_spec_loader.h"

#include <QDir>
#include <QFile>
#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>

namespace ptowb::cli {

namespace {

// The package's op, loaded from its op.json (kernel and reference are looked up beside it).
std::optional<OpSpec> loadPackageOp(const std::string& packageDir, std::ostream& out,
                                    std::ostream& err)
{
    const QString path =
        QDir(QString::fromStdString(packageDir)).filePath(QStringLiteral("op.json"));
    QByteArray text;
    QString error;
    if (!readTextFile(path, text, error)) {
        err << "ptowb-cli: " << error.toStdString() << " (is " << packageDir
            << " an exported package?)\n";
        return std::nullopt;
    }
    SpecLoadResult loaded = loadOpSpecText(text.toStdString(), path.toStdString(), "");
    if (!loaded.usable()) {
        for (const Diagnostic& d : loaded.diagnostics)
            out << formatDiagnostic(d) << '\n';
        return std::nullopt;
    }
    return loaded.spec;
}

std::variant<onnxtools::OnnxModel, std::string> loadModelArgument(const CommandLine& cmd)
{
    return onnxtools::OnnxModel::load(cmd.positional[0]);
}

std::string fileSha256(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    const QByteArray data = file.readAll();
    return sha256Hex(std::string_view(data.constData(), std::size_t(data.size())));
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
        auto spec = loadPackageOp(package, out, err);
        if (!spec) return kUsageError;
        if (const std::string error = onnxtools::registerOpSchema(*spec); !error.empty()) {
            err << "ptowb-cli: " << error << '\n';
            return kUsageError;
        }
        // A package whose op the model never calls infers nothing: say so rather than print
        // unknown shapes as a result.
        if (std::none_of(nodes.begin(), nodes.end(), [&](const onnxtools::CustomNode& n) {
                return n.domain == spec->ns && n.opType == spec->opType;
            })) {
            std::string found;
            for (const auto& n : nodes)
                found += (found.empty() ? "" : ", ") + n.domain + "::" + n.opType;
            err << "ptowb-cli: the model has no node " << spec->ns << "::" << spec->opType
                << " for the package " << package << " ("
                << (found.empty() ? std::string("it has no custom nodes")
                                  : "its custom nodes: " + found)
                << ")\n";
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
        if (QString error = writeFileAtomically(QString::fromStdString(outFiles.back()),
                                                QByteArray::fromStdString(model.serialize()));
            !error.isEmpty()) {
            err << "ptowb-cli: " << error.toStdString() << '\n';
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
    nlohmann::json manifest;
    const auto packages = cmd.values("package");
    if (!packages.empty()) {
        QByteArray text;
        QString error;
        if (!readTextFile(QDir(QString::fromStdString(packages.back()))
                              .filePath(QString::fromLatin1(kManifestFile)),
                          text, error)) {
            err << "ptowb-cli: " << error.toStdString() << '\n';
            return kUsageError;
        }
        manifest = nlohmann::json::parse(text.toStdString(), nullptr, false);
    }
    const auto nodes = std::get<onnxtools::OnnxModel>(loaded).customNodes();
    bool mismatch = false;
    for (const auto& node : nodes) {
        out << (node.name.empty() ? std::string("(unnamed)") : node.name) << ": " << node.domain
            << "::" << node.opType;
        if (!node.record) {
            out << " (no ptowb_record)\n";
            continue;
        }
        const auto record = nlohmann::json::parse(*node.record, nullptr, false);
        if (!record.is_object()) {
            out << " (unreadable ptowb_record)\n";
            mismatch = mismatch || !packages.empty();
            continue;
        }
        out << " " << record.value("op", "?") << " " << record.value("version", "?") << " op.json "
            << record.value("op_json_sha256", "?").substr(0, 12) << " kernel "
            << record.value("kernel_sha256", "?").substr(0, 12);
        if (!packages.empty() && manifest.is_object()) {
            const QDir package(QString::fromStdString(packages.back()));
            const bool sameOp = record.value("op", "") ==
                                manifest.value("namespace", "") + "::" + manifest.value("name", "");
            const bool sameDescription = record.value("op_json_sha256", "") ==
                                         fileSha256(package.filePath(QStringLiteral("op.json")));
            const bool sameKernel = record.value("kernel_sha256", "") ==
                                    fileSha256(package.filePath(
                                        QString::fromStdString(manifest.value("kernel_file", ""))));
            if (!sameOp)
                out << " — another op than the package's";
            else if (sameDescription && sameKernel)
                out << " — matches the package";
            else
                out << " — differs from the package:" << (sameDescription ? "" : " op.json changed")
                    << (sameKernel ? "" : " kernel changed");
            mismatch = mismatch || !(sameOp && sameDescription && sameKernel);
        }
        out << '\n';
    }
    if (nodes.empty()) out << "no custom nodes\n";
    return mismatch ? kFailure : kSuccess;
}

} // namespace ptowb::cli
