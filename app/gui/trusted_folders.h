#pragma once

#include <QString>
#include <functional>
#include <string>

namespace ptowb {

// Project folders whose code the user allowed to run (DESIGN §13). Trust is given to content:
// what is kept is the folder's fingerprint (core/project/project_fingerprint.h: op.json, the
// kernel, the reference, every Python file of the project, runners.json, deploy.json). A change
// made outside the app asks again, saying what changed; the user's own saves in the app keep it.
// The sample projects and the projects the New Operator wizard creates are trusted.
class TrustedFolders
{
public:
    static bool isTrusted(const QString& folder);
    static void trust(const QString& folder);
    // The app saved `text` to `file` in `folder`: a folder trusted before keeps its trust.
    static void noteOwnSave(const QString& folder, const QString& file, const std::string& text);
    // How the user is asked; `changes` is what changed since the folder was trusted ("" when it
    // never was). Tests replace the dialog.
    using Prompt = std::function<bool(const QString& folder, const QString& changes)>;
    static Prompt& prompt();
    // Trusted already, or the user says yes now (and the answer is kept).
    static bool ensureTrusted(const QString& folder);
};

} // namespace ptowb
