#pragma once

#include "onnxmodel/node_record.h"
#include "spec/op_spec_loader.h"

#include <string>
#include <variant>

namespace ptowb {

// An exported package as a model that uses its op sees it: its op description, and the
// identity its nodes record (op, sha256 of op.json and of the kernel).

// The package's op.json, loaded; the error says when the folder is no exported package.
std::variant<SpecLoadResult, std::string> loadPackageOp(const std::string& packageDir);

std::variant<onnxtools::PackageIdentity, std::string>
readPackageIdentity(const std::string& packageDir);

} // namespace ptowb
