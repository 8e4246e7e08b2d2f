#pragma once

#include <string>
#include <vector>

namespace ptowb {

// Starts an op project from a template of resources/templates (elementwise, reduction,
// matmul): op.json, kernel.py and reference.py with the op's names filled in. The result
// validates and verifies against the simulator as it is.
struct NewProjectOptions
{
    std::string folder;       // created; must not exist or be empty
    std::string templateName; // one of templateNames()
    std::string name;         // the op name, [a-z_][a-z0-9_]*
    std::string ns = "custom";
};

std::vector<std::string> templateNames();
// The sample op projects that ship with the workbench (share/ptowb/projects, or the source
// tree's projects/), each a folder with an op.json; by name, first found wins.
std::vector<std::string> sampleProjects();
// "scale_gelu" -> "ScaleGelu"
std::string opTypeFor(const std::string& name);
// Returns "" or why the project could not be made (nothing is left half-written).
std::string createProjectFromTemplate(const NewProjectOptions& options);
// A sample's own files (not its runs, glue or packages) copied to `folder`, which must not exist
// or be empty, so the author edits a copy and never the shipped sample. Returns "" or what
// failed; a failed copy leaves no folder.
std::string copySampleProject(const std::string& sample, const std::string& folder);

} // namespace ptowb
