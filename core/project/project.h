#pragma once

#include "spec/op_spec_loader.h"

#include <QString>
#include <atomic>
#include <optional>
#include <string>
#include <vector>

namespace ptowb {

// An op project folder: op.json plus the kernel and reference files it names.
// The user's copy of a configuration file: ~/.config/ptowb/<name> (XDG_CONFIG_HOME respected).
QString userConfigFile(const QString& name);

class Project
{
public:
    static constexpr const char* kDescriptionFile = "op.json";

    // Accepts the folder or the path of its op.json. Fails when there is no op.json.
    static std::optional<Project> open(const QString& folderOrFile, QString& error);

    QString folder() const { return m_folder; }
    QString name() const;
    QString descriptionPath() const;
    // From op.json when it names them; kernel.py / reference.py otherwise.
    QString kernelPath() const;
    QString referencePath() const;

    // A configuration file's two places: the user's (~/.config/ptowb/<name>), then the
    // project's (<project>/<name>). A project's tolerances refine the user's; a runner or deploy
    // target the user named keeps the user's command (the project's is a warning).
    std::vector<std::string> configFiles(const QString& name) const;
    std::vector<std::string> runnerConfigFiles() const
    {
        return configFiles(QStringLiteral("runners.json"));
    }
    std::vector<std::string> deployConfigFiles() const
    {
        return configFiles(QStringLiteral("deploy.json"));
    }
    std::vector<std::string> toleranceConfigFiles() const
    {
        return configFiles(QStringLiteral("tolerances.json"));
    }
    // Where run folders go: <project>/.ptowb/runs.
    QString runsFolder() const;
    // Where Generate writes the glue (the last generation; the app diffs against it).
    QString glueFolder() const;
    // "" when `path` (a folder the workbench writes: .ptowb/..., packages/...) is reached without a
    // symbolic link below the project folder; otherwise the error naming the link.
    QString linkedFolderError(const QString& path) const;

    // Validates op.json text (saved or not) against the files in the folder.
    SpecLoadResult validate(const QByteArray& descriptionText) const;
    SpecLoadResult validateSaved() const;
    // Compiles reference.py text (saved or not) against a valid op, in the reference checker's
    // process; problems are diagnostics on reference.py lines. Setting `cancel` stops it.
    Diagnostics checkReference(const OpSpec& spec, const QByteArray& referenceText,
                               const std::atomic<bool>* cancel = nullptr) const;
    // Parses the kernel and checks it against a valid op (bindings, annotations, pypto calls).
    Diagnostics checkKernel(const OpSpec& spec, const QByteArray& kernelText) const;
    // All three, on the texts given: what `ptowb-cli validate` and the editor report.
    Diagnostics check(const QByteArray& descriptionText, const QByteArray& referenceText,
                      const QByteArray& kernelText,
                      const std::atomic<bool>* cancel = nullptr) const;

private:
    void readSourceNames();

    QString m_folder;
    QString m_kernelFile = QStringLiteral("kernel.py");
    QString m_referenceFile = QStringLiteral("reference.py");
};

} // namespace ptowb
