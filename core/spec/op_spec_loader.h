#pragma once

#include "diag/diagnostic.h"
#include "spec/op_spec.h"

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace ptowb {

struct SpecLoadResult
{
    OpSpec spec;
    Diagnostics diagnostics;

    // The spec may be used for inference and generation only when nothing is an error.
    bool usable() const { return !hasErrors(diagnostics); }
};

// Loads op.json from text (e.g. an editor's unsaved buffer). `fileName` labels diagnostics;
// `projectDir`, when not empty, is where kernel, reference and fill files are looked up.
SpecLoadResult loadOpSpecText(std::string text, const std::string& fileName,
                              const std::string& projectDir);

class SpecReader;
// Reads a tolerance object (op.json's "tolerance", or the user's default tolerances) into `into`;
// problems are diagnostics at `pointer`.
void readToleranceObject(SpecReader& reader, const nlohmann::json& tolerance,
                         const std::string& pointer, ToleranceSpec& into);

// Reads the file first; an unreadable or oversized file is a diagnostic, not an exception.
SpecLoadResult loadOpSpecFile(const std::string& path);

} // namespace ptowb
