#include "onnxmodel/node_record.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace ptowb::onnxtools {

NodeRecordCheck checkNodeRecord(const CustomNode& node, const PackageIdentity* package)
{
    NodeRecordCheck check;
    if (!node.record) return check;
    const auto record = nlohmann::json::parse(*node.record, nullptr, false);
    if (!record.is_object()) {
        check.status = NodeRecordCheck::Status::Unreadable;
        return check;
    }
    auto text = [&](const char* key) {
        const auto it = record.find(key);
        return it != record.end() && it->is_string() ? it->get<std::string>() : std::string("?");
    };
    check.summary = text("op") + " " + text("version") + " op.json " +
                    text("op_json_sha256").substr(0, 12) + " kernel " +
                    text("kernel_sha256").substr(0, 12);
    if (!package) {
        check.status = NodeRecordCheck::Status::Unchecked;
        return check;
    }
    check.descriptionChanged = text("op_json_sha256") != package->opJsonSha256;
    check.kernelChanged = text("kernel_sha256") != package->kernelSha256;
    check.status = text("op") != package->op ? NodeRecordCheck::Status::OtherOp
                   : check.descriptionChanged || check.kernelChanged
                       ? NodeRecordCheck::Status::Differs
                       : NodeRecordCheck::Status::Matches;
    return check;
}

std::string missingOpNode(const std::vector<CustomNode>& nodes, const std::string& domain,
                          const std::string& opType)
{
    if (std::any_of(nodes.begin(), nodes.end(),
                    [&](const CustomNode& n) { return n.domain == domain && n.opType == opType; }))
        return {};
    std::string found;
    for (const CustomNode& n : nodes)
        found += (found.empty() ? "" : ", ") + n.domain + "::" + n.opType;
    return "the model has no node " + domain + "::" + opType + " (" +
           (found.empty() ? std::string("it has no custom nodes") : "its custom nodes: " + found) +
           ")";
}

} // namespace ptowb::onnxtools
