#pragma once

#include "diag/diagnostic.h"
#include "project/project.h"

#include <atomic>
#include <functional>
#include <string>

namespace ptowb {

struct ExportOptions
{
    std::string outputFolder; // empty: <project>/packages
    bool archive = false;     // also write <name>-<version>.tar.gz beside the folder
    bool goldens = true;      // run the reference on every case for tests/
    std::function<void(const std::string& step)> progress;
    const std::atomic<bool>* cancel = nullptr;
};

struct ExportResult
{
    std::string packageFolder; // set on success
    std::string archivePath;   // set when an archive was written
    Diagnostics diagnostics;   // why the description cannot be exported
    std::string error;         // I/O or run failure; nothing was left behind

    bool ok() const { return error.empty() && !hasErrors(diagnostics); }
};

// Writes the op package of DESIGN §9: op.json, kernel and reference verbatim, all generated
// glue, the reference's golden outputs for every case, a README and a manifest with the
// sha256 of every file. The package is assembled in a hidden temporary folder and swapped
// into place, so a failure, a cancellation or a kill leaves the previous package (if any)
// whole. The archive beside the folder is replaced in the same step, or removed when no
// archive is asked for: an archive never describes another package than the folder. Hidden
// leftovers of an export that was killed are removed when the next one starts. Every project
// file the package copies (op.json, kernel, reference, fill files) must be inside the project
// folder, not a symbolic link out of it.
ExportResult exportPackage(const Project& project, const ExportOptions& options);

inline constexpr const char* kManifestFile = "manifest.json";
inline constexpr const char* kPackageFormat = "ptowb-package/1";

} // namespace ptowb
