#pragma once

#include "codegen/glue.h"
#include "diag/diagnostic.h"
#include "project/project.h"
#include "run/backend.h"
#include "spec/op_spec_loader.h"

#include <string>
#include <vector>

namespace ptowb {

// A project's saved files, read and validated once, as generation and export need them.
struct ProjectSources
{
    SpecLoadResult loaded;
    std::string opJson;
    std::string kernel;
    std::string reference;
    // The project's modules the kernel file imports: path in the project, text.
    std::vector<std::pair<std::string, std::string>> kernelModules;
    std::string error; // set when a file could not be read

    bool usable() const { return error.empty() && loaded.usable(); }
    // The hash of everything generation, verification and export read: op.json, the kernel,
    // the reference and the modules the kernel imports (a step whose inputs have this hash
    // again is unchanged).
    std::string inputsDigest() const;
    codegen::GlueSource glueSource() const;
    ProjectTexts texts(const Project& project) const; // what the backends run
};

ProjectSources readProjectSources(const Project& project);

// Writes every file under `folder`, each atomically. Returns "" or what failed.
std::string writeGeneratedFiles(const std::vector<codegen::GeneratedFile>& files,
                                const std::string& folder);

} // namespace ptowb
