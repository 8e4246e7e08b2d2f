#include "code_editor.h"

#include "kernel/pypto_api.h"
#include "spec/op_json_vocabulary.h"

#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QToolTip>
#include <Qsci/qsciapis.h>
#include <Qsci/qscilexercpp.h>
#include <Qsci/qscilexerdiff.h>
#include <Qsci/qscilexerjson.h>
#include <Qsci/qscilexerpython.h>
#include <Qsci/qscistyle.h>

namespace ptowb {
namespace {

constexpr int kErrorAnnotationStyle = 200;
constexpr int kWarningAnnotationStyle = 201;

const QColor kErrorColor(0xd3, 0x2f, 0x2f);
const QColor kWarningColor(0xe0, 0x8a, 0x00);

} // namespace

CodeEditor::CodeEditor(Language language, QWidget* parent)
    : QsciScintilla(parent), m_language(language)
{
    configureCommon();
    configureDiagnosticStyles();
}

CodeEditor::~CodeEditor()
{
    // Completion words are prepared on a thread; an editor closed before that ends must stop it
    // first, or the thread outlives the words it reads.
    if (m_apis) m_apis->cancelPreparation();
}

void CodeEditor::configureCommon()
{
    const QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    setUtf8(true);
    setFont(font);

    QsciLexer* lexer = nullptr;
    switch (m_language) {
    case Language::Python: {
        auto* python = new QsciLexerPython(this);
        python->setFoldComments(true);
        python->setIndentationWarning(QsciLexerPython::Inconsistent);
        lexer = python;
        break;
    }
    case Language::Json: {
        auto* json = new QsciLexerJSON(this);
        json->setFoldCompact(false);
        lexer = json;
        break;
    }
    case Language::Cpp:
        lexer = new QsciLexerCPP(this);
        break;
    case Language::Diff:
        lexer = new QsciLexerDiff(this);
        break;
    case Language::Plain:
        break;
    }
    if (lexer) {
        lexer->setDefaultFont(font);
        lexer->setFont(font);
        setLexer(lexer);
    }

    // Completions come from the tables: the pypto API's, and op.json's vocabulary.
    if (m_language == Language::Python || m_language == Language::Json) {
        m_apis = new QsciAPIs(lexer);
        for (const std::string& entry :
             m_language == Language::Python ? kernel::completionEntries() : opJsonCompletions())
            m_apis->add(QString::fromStdString(entry));
        m_apis->prepare();
        setAutoCompletionSource(QsciScintilla::AcsAll);
        setAutoCompletionThreshold(2);
        setAutoCompletionCaseSensitivity(false);
        setCallTipsStyle(QsciScintilla::CallTipsContext);
        SendScintilla(SCI_SETMOUSEDWELLTIME, 500);
        connect(this, &QsciScintillaBase::SCN_DWELLSTART, this, &CodeEditor::showHoverHelp);
        connect(this, &QsciScintillaBase::SCN_DWELLEND, this, [] { QToolTip::hideText(); });
    }

    setMarginType(0, QsciScintilla::NumberMargin);
    setMarginWidth(0, QStringLiteral("00000"));
    setMarginLineNumbers(0, true);
    setMarginType(1, QsciScintilla::SymbolMargin);
    setMarginWidth(1, 14);
    setFolding(QsciScintilla::BoxedTreeFoldStyle, 2);
    setBraceMatching(QsciScintilla::SloppyBraceMatch);
    setAutoIndent(true);
    setIndentationsUseTabs(false);
    setIndentationWidth(m_language == Language::Python ? 4 : 2);
    setTabWidth(4);
    setIndentationGuides(true);
    setCaretLineVisible(true);
    setCaretLineBackgroundColor(QColor(0xf5, 0xf7, 0xfa));
    setEdgeMode(QsciScintilla::EdgeLine);
    setEdgeColumn(100);
    setEdgeColor(QColor(0xe8, 0xe8, 0xe8));
    setWrapMode(QsciScintilla::WrapNone);
    setEolMode(QsciScintilla::EolUnix);
}

void CodeEditor::configureDiagnosticStyles()
{
    m_errorIndicator = indicatorDefine(QsciScintilla::SquiggleIndicator);
    setIndicatorForegroundColor(kErrorColor, m_errorIndicator);
    setIndicatorDrawUnder(true, m_errorIndicator);
    m_warningIndicator = indicatorDefine(QsciScintilla::SquiggleIndicator);
    setIndicatorForegroundColor(kWarningColor, m_warningIndicator);
    setIndicatorDrawUnder(true, m_warningIndicator);

    m_errorMarker = markerDefine(QsciScintilla::Circle);
    setMarkerBackgroundColor(kErrorColor, m_errorMarker);
    setMarkerForegroundColor(kErrorColor, m_errorMarker);
    m_warningMarker = markerDefine(QsciScintilla::Circle);
    setMarkerBackgroundColor(kWarningColor, m_warningMarker);
    setMarkerForegroundColor(kWarningColor, m_warningMarker);
    setMarginMarkerMask(1, (1 << m_errorMarker) | (1 << m_warningMarker));

    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.9);
    QsciStyle errorStyle(kErrorAnnotationStyle, QStringLiteral("error annotation"),
                         kErrorColor.darker(120), QColor(0xfd, 0xec, 0xec), small);
    QsciStyle warningStyle(kWarningAnnotationStyle, QStringLiteral("warning annotation"),
                           kWarningColor.darker(140), QColor(0xfd, 0xf5, 0xe6), small);
    errorStyle.apply(this);
    warningStyle.apply(this);
    setAnnotationDisplay(QsciScintilla::AnnotationBoxed);
}

void CodeEditor::setDiagnostics(const Diagnostics& diagnostics)
{
    m_diagnostics = diagnostics;
    const int lastLine = std::max(0, lines() - 1);
    clearIndicatorRange(0, 0, lastLine, lineLength(lastLine), m_errorIndicator);
    clearIndicatorRange(0, 0, lastLine, lineLength(lastLine), m_warningIndicator);
    markerDeleteAll(m_errorMarker);
    markerDeleteAll(m_warningMarker);
    clearAnnotations();

    QMap<int, QStringList> errorNotes, warningNotes;
    for (const Diagnostic& d : diagnostics) {
        if (d.line <= 0) continue;
        const int line = std::min(d.line - 1, lastLine);
        const bool error = d.severity == Severity::Error;
        const int col = std::max(0, d.col - 1);
        int endLine = d.endLine > 0 ? std::min(d.endLine - 1, lastLine) : line;
        int endCol = d.endCol > 0 ? d.endCol - 1 : col + 1;
        if (endLine == line && endCol <= col) endCol = col + 1;
        fillIndicatorRange(line, col, endLine, endCol,
                           error ? m_errorIndicator : m_warningIndicator);
        markerAdd(line, error ? m_errorMarker : m_warningMarker);
        (error ? errorNotes : warningNotes)[line] << QString::fromStdString(d.message);
    }
    // One annotation per line; errors take its style when a line has both.
    QSet<int> annotated;
    for (auto it = errorNotes.cbegin(); it != errorNotes.cend(); ++it) {
        QStringList notes = it.value() + warningNotes.value(it.key());
        annotate(it.key(), notes.join('\n'), kErrorAnnotationStyle);
        annotated.insert(it.key());
    }
    for (auto it = warningNotes.cbegin(); it != warningNotes.cend(); ++it)
        if (!annotated.contains(it.key()))
            annotate(it.key(), it.value().join('\n'), kWarningAnnotationStyle);
}

void CodeEditor::setLineNotes(const std::vector<std::pair<int, QString>>& notes)
{
    constexpr int kNoteMargin = 3;
    m_notes = notes;
    clearMarginText();
    setMarginType(kNoteMargin, QsciScintilla::TextMarginRightJustified);
    QString widest = m_reservedNote;
    for (const auto& [line, text] : notes) {
        setMarginText(line - 1, text,
                      QsciStyle(-1, QString(), QColor(0x80, 0x50, 0x00), paper(),
                                QFont(font().family(), font().pointSize() - 1)));
        if (text.size() > widest.size()) widest = text;
    }
    setMarginWidth(
        kNoteMargin,
        widest.isEmpty() ? 0 : fontMetrics().horizontalAdvance(widest + QStringLiteral("  ")));
}

void CodeEditor::reserveLineNotes(const QString& widest)
{
    m_reservedNote = widest;
    setLineNotes(m_notes);
}

QString CodeEditor::lineNote(int line) const
{
    for (const auto& [l, text] : m_notes)
        if (l == line) return text;
    return {};
}

QList<int> CodeEditor::markedLines() const
{
    QList<int> result;
    const unsigned mask = (1u << m_errorMarker) | (1u << m_warningMarker);
    for (int line = 0; line < lines(); ++line)
        if (markersAtLine(line) & mask) result << line;
    return result;
}

QString CodeEditor::annotationAt(int line) const
{
    return annotation(line);
}

void CodeEditor::goTo(int line, int col)
{
    const int l = std::clamp(line - 1, 0, std::max(0, lines() - 1));
    setCursorPosition(l, std::max(0, col - 1));
    ensureLineVisible(l);
    setFocus();
}

CodeEditor::Language CodeEditor::languageForFile(const QString& fileName)
{
    const QFileInfo info(fileName);
    const QString suffix = info.suffix().toLower();
    if (suffix == QLatin1String("py")) return Language::Python;
    if (suffix == QLatin1String("json")) return Language::Json;
    if (suffix == QLatin1String("diff") || suffix == QLatin1String("patch")) return Language::Diff;
    if (QStringList{QStringLiteral("cpp"), QStringLiteral("cc"), QStringLiteral("h"),
                    QStringLiteral("hpp")}
            .contains(suffix))
        return Language::Cpp;
    return Language::Plain;
}

QString CodeEditor::helpAt(int position) const
{
    if (position < 0 || position >= length()) return {};
    const long start = const_cast<CodeEditor*>(this)->SendScintilla(
        SCI_WORDSTARTPOSITION, static_cast<unsigned long>(position), true);
    const long end = const_cast<CodeEditor*>(this)->SendScintilla(
        SCI_WORDENDPOSITION, static_cast<unsigned long>(position), true);
    if (end <= start) return {};
    int line = 0, index = 0;
    lineIndexFromPosition(int(start), &line, &index);
    const QByteArray lineBytes = text(line).toUtf8();
    int endLine = 0, endIndex = 0;
    lineIndexFromPosition(int(end), &endLine, &endIndex);
    if (endLine != line) return {};
    const std::string word = lineBytes.mid(index, endIndex - index).toStdString();
    if (m_language == Language::Python) {
        // Only pypto.<name>: a local function called `exp` is the author's own.
        if (index < 6 || lineBytes.mid(index - 6, 6) != "pypto.") return {};
        return QString::fromStdString(kernel::apiHelp(word));
    }
    if (m_language == Language::Json) return QString::fromStdString(opJsonHelp(word));
    return {};
}

void CodeEditor::showHoverHelp(int position, int x, int y)
{
    const QString help = helpAt(position);
    if (!help.isEmpty())
        QToolTip::showText(viewport()->mapToGlobal(QPoint(x, y)), help, viewport());
}

void CodeEditor::setDocumentText(const QString& text)
{
    setText(text);
    setModified(false);
}

void CodeEditor::reloadText(const QString& text)
{
    int line = 0, index = 0;
    getCursorPosition(&line, &index);
    const int top = firstVisibleLine();
    setDocumentText(text);
    setCursorPosition(std::min(line, std::max(0, lines() - 1)), index);
    setFirstVisibleLine(top);
}

void CodeEditor::closePopups()
{
    cancelList();
    SendScintilla(SCI_CALLTIPCANCEL);
}

} // namespace ptowb
