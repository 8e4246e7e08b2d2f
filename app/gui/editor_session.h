#pragma once

#include "diag/diagnostic.h"
#include "project/project.h"
#include "work_pool.h"

#include <QFileSystemWatcher>
#include <QObject>
#include <QTimer>
#include <array>
#include <functional>
#include <optional>

namespace ptowb {

class CodeEditor;

// The open project and its three editable files. Saves atomically, and checks the
// description and the reference while the author types (after a pause) and on every save,
// off the GUI thread. A file changed on disk by another program is reloaded, or, when its
// editor holds unsaved changes, reloaded only if the author says so.
class EditorSession : public QObject
{
    Q_OBJECT

public:
    enum class Document
    {
        Description,
        Kernel,
        Reference
    };
    static constexpr int kDocumentCount = 3;
    static constexpr int kValidationDelayMs = 400;

    explicit EditorSession(QObject* parent = nullptr);
    ~EditorSession() override;

    // Editors exist for the session's lifetime; the window places them in its layout.
    CodeEditor* editor(Document document) const { return m_editors[std::size_t(document)]; }
    QString path(Document document) const;

    bool open(const QString& folderOrFile, QString& error);
    // No project: the editors empty and disabled.
    void close();
    const std::optional<Project>& project() const { return m_project; }

    bool isModified() const;
    // Asked whether to replace unsaved changes with a file's new text from disk; tests replace it.
    using ReloadPrompt = std::function<bool(const QString& path)>;
    void setReloadPrompt(ReloadPrompt prompt) { m_reloadPrompt = std::move(prompt); }
    // Reads the three files now and reloads those another program changed (the watcher does
    // this a moment after a change).
    void checkDisk();
    void closePopups();
    bool save(Document document, QString& error);
    bool saveAll(QString& error);

    void validateNow();
    const Diagnostics& diagnostics() const { return m_diagnostics; }
    // A run's diagnostics (a case error at its kernel line) beside the live ones, in the editors'
    // margins until the next check replaces them; returns both.
    Diagnostics showRunDiagnostics(const Diagnostics& run);

Q_SIGNALS:
    void validated(const ptowb::Diagnostics& diagnostics);
    void modificationChanged(bool modified);
    // A file changed on disk: reloaded into its editor, or kept as edited (the author declined).
    void diskChanged(const QString& path, bool reloaded);

private:
    void onValidationFinished(Diagnostics diagnostics);
    void distribute(const Diagnostics& diagnostics);
    void watch();
    void unwatch();

    std::array<CodeEditor*, kDocumentCount> m_editors{};
    std::optional<Project> m_project;
    QTimer m_validationTimer;
    Diagnostics m_diagnostics;
    QFileSystemWatcher m_disk;
    QTimer m_diskTimer;                               // changes come in bursts (write, rename)
    std::array<std::string, kDocumentCount> m_onDisk; // each file as last read or written
    ReloadPrompt m_reloadPrompt;
    bool m_checkingDisk = false;
    JobTracker<Diagnostics> m_checks{this}; // the newest check of the editors' text wins
};

} // namespace ptowb
