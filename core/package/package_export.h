#pragma once

#include "diag/diagnostic.h"
#include "project/project.h"

#include <QString>

#include <atomic>
#include <functional>

namespace ptowb {

struct ExportOptions
{
    QString outputFolder;   // empty: <project>/packages
    bool archive = false;   // also write <name>-<version>.tar.gz beside the folder
    bool goldens = true;    // run the reference on every case for tests/
    std::function<void(const QString& step)> progress;
    const std::atomic<bool>* cancel = nullptr;
};

struct ExportResult
{
    QString packageFolder; // set on success
    QString archivePath;   // set when an archive was written
    Diagnostics diagnostics; // why the description cannot be exported
    QString error;           // I/O or run failure; nothing was left behind

    bool ok() const { return error.isEmpty() && !hasErrors(diagnostics); }
};

// Writes the op package of DESIGN §9: op.json, kernel and reference verbatim, all generated
// glue, the reference's golden outputs for every case, a README and a manifest with the
// sha256 of every file. The package is assembled in a temporary folder and renamed into
// place, so a failure or cancellation leaves the previous package (if any) untouched.
ExportResult exportPackage(const Project& project, const ExportOptions& options);

inline constexpr const char* kManifestFile = "manifest.json";
inline constexpr const char* kPackageFormat = "ptowb-package/1";

} // namespace ptowb
