#pragma once

#include "diag/diagnostic.h"
#include "project/project.h"

#include <QFutureWatcher>
#include <QObject>
#include <QTimer>
#include <array>
#include <optional>

namespace ptowb {

class CodeEditor;

// The open project and its three editable files. Saves atomically, and checks the
// description and the reference while the author types (after a pause) and on every save,
// off the GUI thread.
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
    const std::optional<Project>& project() const { return m_project; }

    bool isModified() const;
    bool save(Document document, QString& error);
    bool saveAll(QString& error);

    void validateNow();
    bool isValidating() const { return m_watcher.isRunning(); }
    const Diagnostics& diagnostics() const { return m_diagnostics; }
    // A run's diagnostics (a case error at its kernel line) beside the live ones, in the editors'
    // margins until the next check replaces them; returns both.
    Diagnostics showRunDiagnostics(const Diagnostics& run);

Q_SIGNALS:
    void validated(const ptowb::Diagnostics& diagnostics);
    void modificationChanged(bool modified);

private:
    void onValidationFinished();
    void distribute(const Diagnostics& diagnostics);

    std::array<CodeEditor*, kDocumentCount> m_editors{};
    std::optional<Project> m_project;
    QTimer m_validationTimer;
    QFutureWatcher<Diagnostics> m_watcher;
    quint64 m_generation = 0;
    quint64 m_runningGeneration = 0;
    bool m_validateAgain = false;
    Diagnostics m_diagnostics;
};

} // namespace ptowb
