#include "editor_session.h"

#include "code_editor.h"
#include "project/atomic_file.h"
#include "trusted_folders.h"
#include "work_pool.h"

#include <QFileInfo>
#include <QMessageBox>
#include <filesystem>

namespace ptowb {

EditorSession::EditorSession(QObject* parent) : QObject(parent)
{
    m_editors[std::size_t(Document::Description)] = new CodeEditor(CodeEditor::Language::Json);
    m_editors[std::size_t(Document::Kernel)] = new CodeEditor(CodeEditor::Language::Python);
    m_editors[std::size_t(Document::Reference)] = new CodeEditor(CodeEditor::Language::Python);
    // A Verify puts the simulator's estimate per line ("12.3 µs") into the kernel's margin; its
    // room is kept from the start, so that the code does not jump right when they come.
    editor(Document::Kernel)->reserveLineNotes(QStringLiteral("99.9 µs"));
    for (CodeEditor* e : m_editors) {
        e->setEnabled(false);
        connect(e, &CodeEditor::modificationChanged, this,
                [this] { Q_EMIT modificationChanged(isModified()); });
        connect(e, &CodeEditor::textChanged, &m_validationTimer, qOverload<>(&QTimer::start));
    }
    m_validationTimer.setSingleShot(true);
    m_validationTimer.setInterval(kValidationDelayMs);
    connect(&m_validationTimer, &QTimer::timeout, this, &EditorSession::validateNow);
    m_diskTimer.setSingleShot(true);
    m_diskTimer.setInterval(150);
    connect(&m_diskTimer, &QTimer::timeout, this, &EditorSession::checkDisk);
    connect(&m_disk, &QFileSystemWatcher::fileChanged, &m_diskTimer, qOverload<>(&QTimer::start));
    connect(&m_disk, &QFileSystemWatcher::directoryChanged, &m_diskTimer,
            qOverload<>(&QTimer::start));
    m_reloadPrompt = [](const QString& path) {
        return QMessageBox::question(
                   nullptr, tr("File changed on disk"),
                   tr("%1 was changed by another program, and its editor has unsaved changes.\n"
                      "Reload it from disk and lose those changes?")
                       .arg(path),
                   QMessageBox::Yes | QMessageBox::No, QMessageBox::No) == QMessageBox::Yes;
    };
}

EditorSession::~EditorSession()
{
    m_checks.cancel();
    m_checks.waitForFinished();
    // Editors the window did not adopt are still ours to delete.
    for (CodeEditor* e : m_editors)
        if (!e->parent()) delete e;
}

QString EditorSession::path(Document document) const
{
    if (!m_project) return {};
    switch (document) {
    case Document::Description:
        return QString::fromStdString(m_project->descriptionPath());
    case Document::Kernel:
        return QString::fromStdString(m_project->kernelPath());
    case Document::Reference:
        return QString::fromStdString(m_project->referencePath());
    }
    return {};
}

bool EditorSession::open(const QString& folderOrFile, QString& error)
{
    std::string why;
    auto project = Project::open(folderOrFile.toStdString(), why);
    if (!project) {
        error = QString::fromStdString(why);
        return false;
    }
    std::array<std::string, kDocumentCount> texts;
    const std::array<std::string, kDocumentCount> paths{
        project->descriptionPath(), project->kernelPath(), project->referencePath()};
    for (std::size_t k = 0; k < paths.size(); ++k) {
        // A missing kernel or reference is reported by validation; the editor starts empty.
        if (std::error_code ec;
            std::filesystem::exists(paths[k], ec) && !readTextFile(paths[k], texts[k], why)) {
            error = QString::fromStdString(why);
            return false;
        }
    }
    // The project before this one: its check in flight and its files' watches are not ours.
    m_checks.cancel();
    unwatch();
    m_project = std::move(project);
    for (int k = 0; k < kDocumentCount; ++k) {
        CodeEditor* e = m_editors[std::size_t(k)];
        e->setDocumentText(QString::fromStdString(texts[std::size_t(k)]));
        e->setEnabled(true);
    }
    m_onDisk = texts;
    watch();
    // Checking the reference loads libtorch; started at once, that load would hold the dynamic
    // loader while the window loads its own plugins, delaying the first paint.
    m_validationTimer.start();
    Q_EMIT modificationChanged(false);
    return true;
}

void EditorSession::close()
{
    m_validationTimer.stop();
    m_diskTimer.stop();
    unwatch();
    m_project.reset();
    m_checks.cancel(); // a check still running belongs to the closed project
    for (CodeEditor* e : m_editors) {
        e->setDocumentText({});
        e->setDiagnostics({});
        e->setLineNotes({});
        e->setEnabled(false);
    }
    m_onDisk = {};
    m_diagnostics.clear();
    Q_EMIT validated(m_diagnostics);
    Q_EMIT modificationChanged(false);
}

// The three files and the folders holding them: a file saved by rename is a new file, which only
// its folder's watch sees.
void EditorSession::watch()
{
    if (!m_project) return;
    for (Document d : {Document::Description, Document::Kernel, Document::Reference}) {
        const QString file = path(d);
        if (QFileInfo::exists(file) && !m_disk.files().contains(file)) m_disk.addPath(file);
        const QString folder = QFileInfo(file).absolutePath();
        if (!m_disk.directories().contains(folder)) m_disk.addPath(folder);
    }
}

void EditorSession::unwatch()
{
    if (!m_disk.files().isEmpty()) m_disk.removePaths(m_disk.files());
    if (!m_disk.directories().isEmpty()) m_disk.removePaths(m_disk.directories());
}

void EditorSession::checkDisk()
{
    if (!m_project) return;
    // The prompt runs an event loop: a change meanwhile is checked after it, not inside it.
    if (m_checkingDisk) {
        m_diskTimer.start();
        return;
    }
    m_checkingDisk = true;
    for (Document d : {Document::Description, Document::Kernel, Document::Reference}) {
        const QString file = path(d);
        const std::string filePath = file.toStdString();
        std::string text;
        std::string error;
        if (!QFileInfo::exists(file) || !readTextFile(filePath, text, error)) continue;
        std::string& known = m_onDisk[std::size_t(d)];
        if (text == known) continue;
        known = text; // asked once per change, whatever the answer
        CodeEditor* e = editor(d);
        if (e->text().toStdString() == text) continue;
        const bool reload = !e->isModified() || m_reloadPrompt(file);
        if (reload) {
            // The file as it is now: it may have changed again while the author was asked.
            std::string latest;
            if (readTextFile(filePath, latest, error)) known = text = latest;
            e->reloadText(QString::fromStdString(text));
        }
        Q_EMIT diskChanged(file, reload);
    }
    m_checkingDisk = false;
    watch();
}

void EditorSession::closePopups()
{
    for (CodeEditor* e : m_editors)
        e->closePopups();
}

bool EditorSession::isModified() const
{
    return std::any_of(m_editors.begin(), m_editors.end(),
                       [](const CodeEditor* e) { return e->isModified(); });
}

bool EditorSession::save(Document document, QString& error)
{
    CodeEditor* e = editor(document);
    if (!m_project) return true;
    if (!e->isModified()) return true;
    const std::string text = e->text().toStdString();
    error = QString::fromStdString(writeFileAtomically(path(document).toStdString(), text));
    if (!error.isEmpty()) return false;
    m_onDisk[std::size_t(document)] = text; // our own write is no change from another program
    TrustedFolders::noteOwnSave(QString::fromStdString(m_project->folder()), path(document),
                                text); // nor a reason to ask
    e->setModified(false);
    validateNow();
    return true;
}

bool EditorSession::saveAll(QString& error)
{
    for (Document d : {Document::Description, Document::Kernel, Document::Reference})
        if (!save(d, error)) return false;
    return true;
}

void EditorSession::validateNow()
{
    if (!m_project) return;
    m_validationTimer.stop();
    const Project project = *m_project;
    const std::string description = editor(Document::Description)->text().toStdString();
    const std::string reference = editor(Document::Reference)->text().toStdString();
    const std::string kernel = editor(Document::Kernel)->text().toStdString();
    // A check of older text still running is superseded: only this one's result is shown.
    m_checks.start(
        [project, description, reference, kernel](const std::atomic<bool>& superseded) {
            return project.check(description, reference, kernel, &superseded);
        },
        [this](Diagnostics diagnostics) { onValidationFinished(std::move(diagnostics)); });
}

void EditorSession::onValidationFinished(Diagnostics diagnostics)
{
    m_diagnostics = std::move(diagnostics);
    distribute(m_diagnostics);
    Q_EMIT validated(m_diagnostics);
}

Diagnostics EditorSession::showRunDiagnostics(const Diagnostics& run)
{
    Diagnostics all = m_diagnostics;
    all.insert(all.end(), run.begin(), run.end());
    distribute(all);
    return all;
}

void EditorSession::distribute(const Diagnostics& diagnostics)
{
    for (Document d : {Document::Description, Document::Kernel, Document::Reference}) {
        const std::string file = path(d).toStdString();
        Diagnostics mine;
        for (const Diagnostic& diagnostic : diagnostics)
            if (diagnostic.file == file) mine.push_back(diagnostic);
        editor(d)->setDiagnostics(mine);
    }
}

} // namespace ptowb
