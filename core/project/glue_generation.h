#pragma once

#include "codegen/glue.h"
#include "text/line_diff.h"

#include <string>
#include <vector>

namespace ptowb {

// One generation of the glue as written to a project's glue folder, and what changed between
// two generations, file by file.
std::vector<codegen::GeneratedFile>
readGeneratedFolder(const std::string& folder); // sorted by path

struct GlueFileChange
{
    enum class Status
    {
        Unchanged,
        Changed,
        Added,
        Removed
    };
    std::string path;
    Status status = Status::Unchanged;
    LineDiff diff; // previous -> current
};

// Every path of either generation, in path order.
std::vector<GlueFileChange> compareGenerations(const std::vector<codegen::GeneratedFile>& previous,
                                               const std::vector<codegen::GeneratedFile>& current);

// Replaces `folder` with exactly these files: written beside it, then swapped in, so files
// a previous generation had and this one does not are gone and a failure keeps the old folder.
// The generation it replaces is kept as previousGenerationFolder(folder).
std::string replaceGeneratedFolder(const std::vector<codegen::GeneratedFile>& files,
                                   const std::string& folder);
std::string previousGenerationFolder(const std::string& folder); // "<folder>.previous"

} // namespace ptowb
