#pragma once

#include "codegen/glue.h"
#include "diag/diagnostic.h"
#include "project/project.h"
#include "spec/op_spec_loader.h"

#include <QString>

namespace ptowb::codegen {

// A project's saved files, read and validated once, as generation and export need them.
struct ProjectSources
{
    SpecLoadResult loaded;
    std::string opJson;
    std::string kernel;
    std::string reference;
    QString error; // set when a file could not be read

    bool usable() const { return error.isEmpty() && loaded.usable(); }
    GlueSource glueSource() const;
};

ProjectSources readProjectSources(const Project& project);

// Where the generated torch/CMakeLists.txt finds ptowb's CMake package by default:
// $PTOWB_CMAKE_DIR, an installed ptowb beside this executable, or the build tree.
std::string defaultPtowbCMakeDir();

// Writes every file under `folder`, each atomically. Returns "" or what failed.
QString writeGeneratedFiles(const std::vector<GeneratedFile>& files, const QString& folder);

} // namespace ptowb::codegen
