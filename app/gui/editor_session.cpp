#include "editor_session.h"

#include "code_editor.h"
#include "project/atomic_file.h"
#include "work_pool.h"

#include <QFileInfo>
#include <QtConcurrent>

namespace ptowb {

EditorSession::EditorSession(QObject* parent) : QObject(parent)
{
    m_editors[std::size_t(Document::Description)] = new CodeEditor(CodeEditor::Language::Json);
    m_editors[std::size_t(Document::Kernel)] = new CodeEditor(CodeEditor::Language::Python);
    m_editors[std::size_t(Document::Reference)] = new CodeEditor(CodeEditor::Language::Python);
    for (CodeEditor* e : m_editors) {
        e->setEnabled(false);
        connect(e, &CodeEditor::modificationChanged, this,
                [this] { Q_EMIT modificationChanged(isModified()); });
        connect(e, &CodeEditor::textChanged, this, [this] {
            ++m_generation;
            m_validationTimer.start();
        });
    }
    m_validationTimer.setSingleShot(true);
    m_validationTimer.setInterval(kValidationDelayMs);
    connect(&m_validationTimer, &QTimer::timeout, this, &EditorSession::validateNow);
    connect(&m_watcher, &QFutureWatcher<Diagnostics>::finished, this,
            &EditorSession::onValidationFinished);
}

EditorSession::~EditorSession()
{
    m_watcher.waitForFinished();
    // Editors the window did not adopt are still ours to delete.
    for (CodeEditor* e : m_editors)
        if (!e->parent()) delete e;
}

QString EditorSession::path(Document document) const
{
    if (!m_project) return {};
    switch (document) {
    case Document::Description:
        return m_project->descriptionPath();
    case Document::Kernel:
        return m_project->kernelPath();
    case Document::Reference:
        return m_project->referencePath();
    }
    return {};
}

bool EditorSession::open(const QString& folderOrFile, QString& error)
{
    auto project = Project::open(folderOrFile, error);
    if (!project) return false;
    std::array<QByteArray, kDocumentCount> texts;
    const std::array<QString, kDocumentCount> paths{
        project->descriptionPath(), project->kernelPath(), project->referencePath()};
    for (int k = 0; k < kDocumentCount; ++k) {
        QString readError;
        // A missing kernel or reference is reported by validation; the editor starts empty.
        if (QFileInfo::exists(paths[std::size_t(k)]) &&
            !readTextFile(paths[std::size_t(k)], texts[std::size_t(k)], readError)) {
            error = readError;
            return false;
        }
    }
    m_project = std::move(project);
    for (int k = 0; k < kDocumentCount; ++k) {
        CodeEditor* e = m_editors[std::size_t(k)];
        e->setDocumentText(QString::fromUtf8(texts[std::size_t(k)]));
        e->setEnabled(true);
    }
    // Checking the reference loads libtorch; started at once, that load would hold the dynamic
    // loader while the window loads its own plugins, delaying the first paint.
    m_validationTimer.start();
    Q_EMIT modificationChanged(false);
    return true;
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
    error = writeFileAtomically(path(document), e->text().toUtf8());
    if (!error.isEmpty()) return false;
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
    if (m_watcher.isRunning()) {
        m_validateAgain = true; // the result in flight is stale; run once more when it lands
        return;
    }
    m_runningGeneration = m_generation;
    const Project project = *m_project;
    const QByteArray description = editor(Document::Description)->text().toUtf8();
    const QByteArray reference = editor(Document::Reference)->text().toUtf8();
    const QByteArray kernel = editor(Document::Kernel)->text().toUtf8();
    m_watcher.setFuture(QtConcurrent::run(workPool(), [project, description, reference, kernel] {
        return project.check(description, reference, kernel);
    }));
}

void EditorSession::onValidationFinished()
{
    Diagnostics result = m_watcher.result();
    if (m_validateAgain || m_runningGeneration != m_generation) {
        m_validateAgain = false;
        validateNow();
        return;
    }
    m_diagnostics = std::move(result);
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
