#pragma once

#include "diag/diagnostic.h"

#include <Qsci/qsciscintilla.h>

class QsciAPIs;

namespace ptowb {

// A source editor for the files of an op project: Python or JSON highlighting, line numbers,
// folding, brace matching, completion, and diagnostics drawn as a squiggle under the text, a
// marker in the margin and an annotation below the line.
class CodeEditor : public QsciScintilla
{
    Q_OBJECT

public:
    enum class Language
    {
        Python,
        Json,
        Cpp,
        Diff,
        Plain
    };
    // The language a file's name suggests (generated glue: .py, .json, .cpp/.h, CMakeLists, ...).
    static Language languageForFile(const QString& fileName);

    explicit CodeEditor(Language language, QWidget* parent = nullptr);
    ~CodeEditor() override;

    Language language() const { return m_language; }

    // Replaces the diagnostics shown; those for other files are ignored by the caller.
    void setDiagnostics(const Diagnostics& diagnostics);
    const Diagnostics& diagnostics() const { return m_diagnostics; }
    // 0-based lines that carry an error or warning marker (for tests and navigation).
    QList<int> markedLines() const;
    QString annotationAt(int line) const;

    // Notes in a margin right of the line numbers, e.g. per-line cost estimates: {1-based line,
    // text}. An empty list hides the margin.
    void setLineNotes(const std::vector<std::pair<int, QString>>& notes);
    QString lineNote(int line) const; // 1-based
    // Keeps the margin as wide as a note like `widest` even without notes, so that the text does
    // not move right when notes arrive.
    void reserveLineNotes(const QString& widest);

    // Help for the word at a document position: a pypto function or dtype in Python, an op.json
    // key, rule function or criterion in JSON; "" elsewhere. Shown as a tooltip on hover.
    QString helpAt(int position) const;

    // 1-based line and column, as diagnostics give them.
    void goTo(int line, int col);

    // Loads text without marking the document modified.
    void setDocumentText(const QString& text);
    // The file changed on disk: its new text, keeping the cursor and the scroll position.
    void reloadText(const QString& text);
    // Closes an open completion list or call tip.
    void closePopups();

private:
    void configureCommon();
    void showHoverHelp(int position, int x, int y);
    void configureDiagnosticStyles();

    Language m_language;
    Diagnostics m_diagnostics;
    QsciAPIs* m_apis = nullptr;
    int m_errorIndicator = -1;
    int m_warningIndicator = -1;
    int m_errorMarker = -1;
    int m_warningMarker = -1;
    std::vector<std::pair<int, QString>> m_notes;
    QString m_reservedNote;
};

} // namespace ptowb
