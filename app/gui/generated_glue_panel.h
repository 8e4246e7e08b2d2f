#pragma once

#include "project/glue_generation.h"

#include <QWidget>

class QLabel;
class QTabWidget;
class QTreeWidget;

namespace ptowb {

class CodeEditor;

// The Generated glue dock: every file of the last generation, read-only, and what the last
// generation changed against the one before (per file: added, removed, +n -m lines; the
// unified diff of the selected file). Both generations are read from disk.
class GeneratedGluePanel : public QWidget
{
    Q_OBJECT

public:
    explicit GeneratedGluePanel(QWidget* parent = nullptr);

    // Reads the glue folder and the generation it replaced (kept beside it). When the folder
    // changed since it was last shown, the dock opens the first change.
    void reload(const std::string& glueFolder);

    const std::vector<GlueFileChange>& changes() const { return m_changes; }
    // Shows a file (its path in the generation); returns false when there is no such file.
    bool showFile(const QString& path);
    CodeEditor& fileView() { return *m_file; }
    CodeEditor& diffView() { return *m_diff; }
    QTreeWidget& fileList() { return *m_list; }

private:
    void rebuildList();

    std::vector<codegen::GeneratedFile> m_previous, m_current;
    std::vector<GlueFileChange> m_changes;
    std::string m_folder;
    QLabel* m_summary = nullptr;
    QTreeWidget* m_list = nullptr;
    QTabWidget* m_tabs = nullptr;
    CodeEditor* m_file = nullptr;
    CodeEditor* m_diff = nullptr;
};

} // namespace ptowb
