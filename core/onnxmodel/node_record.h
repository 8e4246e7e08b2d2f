#pragma once

#include "onnxmodel/onnx_model.h"

#include <string>
#include <vector>

namespace ptowb::onnxtools {

// Which op, description and kernel a package holds, as its nodes' ptowb_record names them.
struct PackageIdentity
{
    std::string op; // "ns::name"
    std::string opJsonSha256;
    std::string kernelSha256;
};

// What a custom node's ptowb_record says, and how it compares with a package.
struct NodeRecordCheck
{
    enum class Status
    {
        NoRecord,   // the node carries no ptowb_record
        Unreadable, // ... or one that is not a JSON object
        Unchecked,  // read, no package to compare with
        Matches,
        OtherOp,
        Differs
    };
    Status status = Status::NoRecord;
    std::string summary; // "pto::scale_gelu 1.0.0 op.json 1a2b3c4d5e6f kernel 0f9e8d7c6b5a"
    bool descriptionChanged = false;
    bool kernelChanged = false;
    bool mismatch() const { return status != Status::Matches && status != Status::Unchecked; }
};
NodeRecordCheck checkNodeRecord(const CustomNode& node, const PackageIdentity* package);

// "" when the model has a node of the op; otherwise why not, naming the custom nodes it has.
std::string missingOpNode(const std::vector<CustomNode>& nodes, const std::string& domain,
                          const std::string& opType);

} // namespace ptowb::onnxtools
