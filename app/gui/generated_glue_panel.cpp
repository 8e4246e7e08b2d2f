#include "generated_glue_panel.h"

#include "code_editor.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace ptowb {

namespace {

using Status = GlueFileChange::Status;
constexpr int kPathRole = Qt::UserRole;

CodeEditor* readOnlyEditor(CodeEditor::Language language, const QString& objectName)
{
    auto* editor = new CodeEditor(language);
    editor->setObjectName(objectName);
    editor->setReadOnly(true);
    editor->setCaretLineVisible(false);
    return editor;
}

} // namespace

GeneratedGluePanel::GeneratedGluePanel(QWidget* parent) : QWidget(parent)
{
    m_summary = new QLabel(
        tr("Nothing generated yet: Generate (Ctrl+G), Verify or Redeploy writes the glue."));
    m_summary->setWordWrap(true);
    m_list = new QTreeWidget;
    m_list->setObjectName(QStringLiteral("glueFiles"));
    m_list->setColumnCount(2);
    m_list->setHeaderLabels({tr("File"), tr("Change")});
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_list->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_list->header()->setStretchLastSection(false);

    m_file = readOnlyEditor(CodeEditor::Language::Plain, QStringLiteral("glueFileView"));
    m_diff = readOnlyEditor(CodeEditor::Language::Diff, QStringLiteral("glueDiffView"));
    m_tabs = new QTabWidget;
    m_tabs->addTab(m_file, tr("File"));
    m_tabs->addTab(m_diff, tr("Changes"));

    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(m_list);
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_summary);
    layout->addWidget(splitter, 1);

    connect(m_list, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (item) showFile(item->data(0, kPathRole).toString());
    });
}

void GeneratedGluePanel::reload(const std::string& glueFolder)
{
    std::vector<codegen::GeneratedFile> files = readGeneratedFolder(glueFolder);
    const bool newGeneration =
        glueFolder == m_folder && !std::equal(files.begin(), files.end(), m_current.begin(),
                                              m_current.end(), [](const auto& a, const auto& b) {
                                                  return a.path == b.path && a.content == b.content;
                                              });
    m_current = std::move(files);
    m_previous = readGeneratedFolder(previousGenerationFolder(glueFolder));
    m_folder = glueFolder;
    m_changes = compareGenerations(m_previous.empty() ? m_current : m_previous, m_current);
    rebuildList();
    if (newGeneration && !m_previous.empty())
        m_tabs->setCurrentWidget(m_diff); // show what it changed
}

void GeneratedGluePanel::rebuildList()
{
    const QString selected =
        m_list->currentItem() ? m_list->currentItem()->data(0, kPathRole).toString() : QString();
    m_list->clear();
    int changed = 0, added = 0, removed = 0;
    QTreeWidgetItem* select = nullptr;
    QTreeWidgetItem* firstChanged = nullptr;
    for (const auto& change : m_changes) {
        QString what;
        QColor colour;
        switch (change.status) {
        case Status::Unchanged:
            break;
        case Status::Changed:
            what = QStringLiteral("+%1 −%2").arg(change.diff.added).arg(change.diff.removed);
            colour = QColor(0x1f, 0x5f, 0xbf);
            ++changed;
            break;
        case Status::Added:
            what = tr("new");
            colour = QColor(0x2e, 0x7d, 0x32);
            ++added;
            break;
        case Status::Removed:
            what = tr("removed");
            colour = QColor(0xc6, 0x28, 0x28);
            ++removed;
            break;
        }
        auto* item = new QTreeWidgetItem(m_list, {QString::fromStdString(change.path), what});
        item->setData(0, kPathRole, QString::fromStdString(change.path));
        if (colour.isValid()) {
            item->setForeground(0, colour);
            item->setForeground(1, colour);
        }
        if (change.status != Status::Unchanged && !firstChanged) firstChanged = item;
        if (item->text(0) == selected) select = item;
    }
    // Stay on the selected file when it changed or nothing did; otherwise show the first change.
    if (firstChanged && (!select || select->text(1).isEmpty())) select = firstChanged;
    if (m_current.empty())
        m_summary->setText(
            tr("Nothing generated yet: Generate (Ctrl+G), Verify or Redeploy writes the glue."));
    else if (m_previous.empty())
        m_summary->setText(tr("%1 files in %2, the first generation.")
                               .arg(m_current.size())
                               .arg(QString::fromStdString(m_folder)));
    else if (changed + added + removed == 0)
        m_summary->setText(
            tr("%1 files; the last generation changed nothing.").arg(m_current.size()));
    else
        m_summary->setText(tr("Last generation: %1 changed, %2 new, %3 removed of %4 files.")
                               .arg(changed)
                               .arg(added)
                               .arg(removed)
                               .arg(m_changes.size()));
    if (!select && m_list->topLevelItemCount() > 0) select = m_list->topLevelItem(0);
    if (select)
        m_list->setCurrentItem(select);
    else {
        m_file->setDocumentText({});
        m_diff->setDocumentText({});
    }
}

bool GeneratedGluePanel::showFile(const QString& path)
{
    const std::string wanted = path.toStdString();
    for (const auto& change : m_changes) {
        if (change.path != wanted) continue;
        std::string content;
        for (const auto& file : change.status == Status::Removed ? m_previous : m_current)
            if (file.path == wanted) content = file.content;
        // A lexer per file type: the view is recreated only when the language changes.
        const CodeEditor::Language language = CodeEditor::languageForFile(path);
        if (language != m_file->language()) {
            const int index = m_tabs->indexOf(m_file);
            QWidget* shown = m_tabs->currentWidget();
            CodeEditor* replacement = readOnlyEditor(language, QStringLiteral("glueFileView"));
            m_tabs->removeTab(index);
            m_tabs->insertTab(index, replacement, tr("File"));
            if (shown == m_file) shown = replacement;
            m_file->deleteLater();
            m_file = replacement;
            m_tabs->setCurrentWidget(shown);
        }
        m_file->setDocumentText(QString::fromStdString(content));
        m_diff->setDocumentText(
            m_previous.empty()
                ? tr("The first generation: there is no earlier one to compare with.")
            : change.status == Status::Unchanged
                ? tr("No change in the last generation.")
                : QString::fromStdString(change.diff.unified(change.path)));
        for (int row = 0; row < m_list->topLevelItemCount(); ++row)
            if (m_list->topLevelItem(row)->data(0, kPathRole).toString() == path &&
                m_list->currentItem() != m_list->topLevelItem(row))
                m_list->setCurrentItem(m_list->topLevelItem(row));
        return true;
    }
    return false;
}

} // namespace ptowb
