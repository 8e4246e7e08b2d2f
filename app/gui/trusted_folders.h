#pragma once

#include <QString>
#include <functional>

namespace ptowb {

// Project folders whose kernel.py and reference.py the user allowed to run (DESIGN §13): asked
// once per folder before its first Verify, Export or Redeploy, kept in the app's settings. The
// sample projects and the projects the New Operator wizard creates are trusted.
class TrustedFolders
{
public:
    static bool isTrusted(const QString& folder);
    static void trust(const QString& folder);
    // How the user is asked; tests replace the dialog.
    using Prompt = std::function<bool(const QString& folder)>;
    static Prompt& prompt();
    // Trusted already, or the user says yes now (and the answer is kept).
    static bool ensureTrusted(const QString& folder);
};

} // namespace ptowb
