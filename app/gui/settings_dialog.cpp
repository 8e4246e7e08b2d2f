#include "settings_dialog.h"

#include "code_editor.h"
#include "pipeline/deploy_target.h"
#include "project/atomic_file.h"
#include "project/project.h"
#include "python_settings_page.h"
#include "run/runner_config.h"
#include "run/sim_run_options.h"
#include "run/tolerance_defaults.h"
#include "spec/op_json_vocabulary.h"
#include "tensor/compare.h"
#include "types/dtype.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <optional>

namespace ptowb {

namespace {

QString fileText(const std::string& path)
{
    std::string data;
    std::string error;
    return readTextFile(path, data, error) ? QString::fromStdString(data) : QString();
}

QString describe(const Diagnostics& diagnostics)
{
    QStringList lines;
    for (const Diagnostic& d : diagnostics)
        lines << QStringLiteral("%1:%2: %3: %4")
                     .arg(d.line)
                     .arg(d.col)
                     .arg(d.isError() ? QStringLiteral("error") : QStringLiteral("warning"),
                          QString::fromStdString(d.message));
    return lines.join(QLatin1Char('\n'));
}

// The user's config folder may not exist yet; a project folder is never created this way.
QString writeConfigFile(const std::string& path, const QString& text)
{
    const QString folder = QFileInfo(QString::fromStdString(path)).absolutePath();
    if (!QDir().mkpath(folder)) return QObject::tr("cannot create %1").arg(folder);
    return QString::fromStdString(writeFileAtomically(path, text.toStdString()));
}

QString number(const std::optional<double>& value)
{
    return value ? QString::number(*value, 'g', 10) : QString();
}

} // namespace

SettingsDialog::SettingsDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Settings"));
    setObjectName(QStringLiteral("settingsDialog"));
    resize(820, 560);
    m_json[0].name = QStringLiteral("runners.json");
    m_json[1].name = QStringLiteral("deploy.json");
    auto* tabs = new QTabWidget;
    tabs->addTab(createToleranceTab(), tr("Default tolerances"));
    tabs->addTab(
        createJsonTab(m_json[0],
                      tr("External runners: commands that run a case folder on a device or another "
                         "simulator; "
                         "<code>verify --against NAME</code> and the app use them. A project's "
                         "runners.json adds to these."),
                      QStringLiteral("{ \"runners\": [\n  { \"name\": \"kirin-phone\", \"kind\": "
                                     "\"device\", \"timeout_s\": 120,\n"
                                     "    \"command\": [\"hdc\", \"shell\", "
                                     "\"/data/local/ptowb/run_op\", \"{run_dir}\"] }\n] }\n")),
        tr("Runners"));
    tabs->addTab(
        createJsonTab(
            m_json[1],
            tr("Where Redeploy puts the package: a folder (copied atomically) or a command (no "
               "shell; "
               "<code>{package}</code> <code>{archive}</code> <code>{op}</code> "
               "<code>{version}</code>)."),
            QStringLiteral(
                "{ \"targets\": [\n  { \"name\": \"ops-dir\", \"folder\": \"/opt/ops\" }\n] }\n")),
        tr("Deploy targets"));
    m_python = new PythonSettingsPage;
    tabs->addTab(m_python, tr("Python interpreter"));
    tabs->addTab(createLimitsTab(), tr("Limits"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(tabs, 1);
    layout->addWidget(buttons);
}

double SettingsDialog::caseTimeLimit()
{
    const double seconds = QSettings().value(QStringLiteral("run/caseTimeLimit")).toDouble();
    return seconds > 0 ? seconds : SimRunOptions{}.timeoutSeconds;
}

QWidget* SettingsDialog::createLimitsTab()
{
    auto* page = new QWidget;
    m_caseTimeLimit = new QDoubleSpinBox;
    m_caseTimeLimit->setObjectName(QStringLiteral("caseTimeLimit"));
    m_caseTimeLimit->setRange(1, 86400);
    m_caseTimeLimit->setDecimals(0);
    m_caseTimeLimit->setSuffix(tr(" s"));
    m_caseTimeLimit->setValue(caseTimeLimit());
    auto* intro = new QLabel(
        tr("A case of the kernel (in the simulator) or of the reference that runs longer is "
           "stopped at its current line and reported as an error; Esc cancels at once. "
           "<code>ptowb-cli</code> takes <code>--time-limit S</code>."));
    intro->setWordWrap(true);
    auto* form = new QFormLayout;
    form->addRow(tr("Time limit per case"), m_caseTimeLimit);
    auto* layout = new QVBoxLayout(page);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addStretch(1);
    return page;
}

QWidget* SettingsDialog::createJsonTab(JsonFile& file, const QString& intro, const QString& example)
{
    auto* page = new QWidget;
    auto* label = new QLabel(
        intro + tr("<br>File: <code>%1</code>")
                    .arg(QDir::toNativeSeparators(
                             QString::fromStdString(userConfigFile(file.name.toStdString())))
                             .toHtmlEscaped()));
    label->setWordWrap(true);
    file.editor = new CodeEditor(CodeEditor::Language::Json);
    file.editor->setObjectName(file.name);
    file.editor->setDocumentText(fileText(userConfigFile(file.name.toStdString())));
    file.problems = new QLabel;
    file.problems->setWordWrap(true);
    file.problems->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* insertExample = new QPushButton(tr("Insert example"));
    connect(insertExample, &QPushButton::clicked, this, [&file, example] {
        if (file.editor->text().trimmed().isEmpty())
            file.editor->setText(example);
        else
            file.editor->append(QStringLiteral("\n") + example);
    });
    connect(file.editor, &QsciScintilla::textChanged, this, [this, &file] { checkJson(file); });
    auto* layout = new QVBoxLayout(page);
    layout->addWidget(label);
    layout->addWidget(file.editor, 1);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(file.problems, 1);
    bottom->addWidget(insertExample);
    layout->addLayout(bottom);
    checkJson(file);
    return page;
}

void SettingsDialog::checkJson(JsonFile& file)
{
    const std::vector<ConfigText> text{
        {userConfigFile(file.name.toStdString()), file.editor->text().toStdString()}};
    file.diagnostics.clear();
    if (!file.editor->text().trimmed().isEmpty())
        file.diagnostics = file.name == QLatin1String("runners.json")
                               ? loadRunnerConfigs(text).diagnostics
                               : loadDeployTargets(text).diagnostics;
    file.editor->setDiagnostics(file.diagnostics);
    file.problems->setText(file.diagnostics.empty() ? tr("No problems.")
                                                    : describe(file.diagnostics));
    file.problems->setStyleSheet(hasErrors(file.diagnostics) ? QStringLiteral("color: #c62828")
                                                             : QString());
}

QString SettingsDialog::problemsText(int jsonTab) const
{
    return m_json[std::size_t(jsonTab)].problems->text();
}

QWidget* SettingsDialog::createToleranceTab()
{
    const ToleranceDefaults current =
        loadToleranceDefaults(std::vector<std::string>{userConfigFile("tolerances.json")});
    auto* page = new QWidget;
    auto* intro = new QLabel(
        tr("Used when an op's tolerance does not name a dtype or criteria; an op's own tolerance "
           "always wins. "
           "Leave a cell empty for the built-in default (in grey on the right).<br>File: "
           "<code>%1</code>")
            .arg(QDir::toNativeSeparators(QString::fromStdString(userConfigFile("tolerances.json")))
                     .toHtmlEscaped()));
    intro->setWordWrap(true);
    std::vector<const DTypeInfo*> dtypes;
    for (const auto& info : allDTypes())
        dtypes.push_back(&info);
    m_tolerances = new QTableWidget(int(dtypes.size()), 3);
    m_tolerances->setObjectName(QStringLiteral("toleranceTable"));
    m_tolerances->setHorizontalHeaderLabels(
        {QStringLiteral("rtol"), QStringLiteral("atol"), tr("built-in")});
    m_tolerances->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    for (int row = 0; row < int(dtypes.size()); ++row) {
        const DTypeInfo& info = *dtypes[std::size_t(row)];
        m_tolerances->setVerticalHeaderItem(
            row, new QTableWidgetItem(
                     QString::fromLatin1(info.name.data(), qsizetype(info.name.size()))));
        const Criteria builtIn = defaultCriteria(info.dtype);
        const auto it = current.tolerance.perDType.find(info.dtype);
        for (int col = 0; col < 2; ++col) {
            auto* item = new QTableWidgetItem(
                it == current.tolerance.perDType.end()
                    ? QString()
                    : QString::number(col == 0 ? it->second.rtol : it->second.atol, 'g', 10));
            item->setToolTip(
                tr("built-in: %1").arg(col == 0 ? builtIn.rtol : builtIn.atol, 0, 'g', 6));
            m_tolerances->setItem(row, col, item);
        }
        auto* builtInItem = new QTableWidgetItem(builtIn.rtol == 0 && builtIn.atol == 0
                                                     ? tr("exact")
                                                     : QStringLiteral("rtol %1, atol %2")
                                                           .arg(builtIn.rtol, 0, 'g', 6)
                                                           .arg(builtIn.atol, 0, 'g', 6));
        builtInItem->setFlags(Qt::ItemIsEnabled);
        builtInItem->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
        m_tolerances->setItem(row, 2, builtInItem);
    }
    auto* criteria = new QHBoxLayout;
    for (const std::string& name : opJsonWords(OpJsonWordKind::Criterion)) {
        auto* box = new QCheckBox(QString::fromStdString(name));
        box->setChecked(std::find(current.tolerance.criteria.begin(),
                                  current.tolerance.criteria.end(),
                                  name) != current.tolerance.criteria.end());
        m_criteria.push_back(box);
        criteria->addWidget(box);
    }
    criteria->addStretch(1);
    m_maxErrorRatio = new QLineEdit(number(current.tolerance.maxErrorRatio));
    m_maxErrorRatio->setPlaceholderText(QStringLiteral("0.005"));
    m_minCosine = new QLineEdit(number(current.tolerance.minCosine));
    m_minCosine->setPlaceholderText(QStringLiteral("0.9999"));
    m_toleranceProblems =
        new QLabel(current.diagnostics.empty() ? QString() : describe(current.diagnostics));
    m_toleranceProblems->setWordWrap(true);
    auto* form = new QFormLayout;
    form->addRow(tr("Criteria (none checked: allclose)"), criteria);
    form->addRow(tr("max_error_ratio"), m_maxErrorRatio);
    form->addRow(tr("min_cosine"), m_minCosine);
    auto* layout = new QVBoxLayout(page);
    layout->addWidget(intro);
    layout->addWidget(m_tolerances, 1);
    layout->addLayout(form);
    layout->addWidget(m_toleranceProblems);
    QStringList ignored;
    m_savedTolerances = QString::fromStdString(toleranceJson(formTolerance(ignored)));
    return page;
}

// The form as a tolerance; `invalid` names the fields that are not numbers. Bounds and
// thresholds are range-checked by the reader when the text is saved.
ToleranceSpec SettingsDialog::formTolerance(QStringList& invalid) const
{
    ToleranceSpec tolerance;
    auto number = [&](const QString& text, const QString& what) -> std::optional<double> {
        if (text.trimmed().isEmpty()) return std::nullopt;
        bool ok = false;
        const double value = text.trimmed().toDouble(&ok);
        if (!ok) invalid << what;
        return ok ? std::optional<double>(value) : std::nullopt;
    };
    for (int row = 0; row < m_tolerances->rowCount(); ++row) {
        const QString rtolText = m_tolerances->item(row, 0)->text(),
                      atolText = m_tolerances->item(row, 1)->text();
        if (rtolText.trimmed().isEmpty() && atolText.trimmed().isEmpty()) continue;
        const QString dtypeName = m_tolerances->verticalHeaderItem(row)->text();
        const DType dtype = dtypeFromName(dtypeName.toStdString()).value_or(DType::Float32);
        // One bound given: the other keeps its built-in value, since the file needs both.
        const Criteria builtIn = defaultCriteria(dtype);
        const auto rtol = number(rtolText, dtypeName + QStringLiteral(" rtol")),
                   atol = number(atolText, dtypeName + QStringLiteral(" atol"));
        tolerance.perDType[dtype] = {rtol.value_or(builtIn.rtol), atol.value_or(builtIn.atol)};
    }
    for (QCheckBox* box : m_criteria)
        if (box->isChecked()) tolerance.criteria.push_back(box->text().toStdString());
    tolerance.maxErrorRatio = number(m_maxErrorRatio->text(), QStringLiteral("max_error_ratio"));
    tolerance.minCosine = number(m_minCosine->text(), QStringLiteral("min_cosine"));
    return tolerance;
}

QString SettingsDialog::save()
{
    QStringList errors;
    for (JsonFile& file : m_json) {
        checkJson(file);
        const std::string path = userConfigFile(file.name.toStdString());
        if (file.editor->text() == fileText(path)) continue;
        if (hasErrors(file.diagnostics)) {
            errors << tr("%1 has errors and was not saved").arg(file.name);
            continue;
        }
        if (QString error = writeConfigFile(path, file.editor->text()); !error.isEmpty())
            errors << error;
    }
    QStringList invalid;
    const QString tolerances = QString::fromStdString(toleranceJson(formTolerance(invalid)));
    if (!invalid.isEmpty() || tolerances != m_savedTolerances) {
        const std::string path = userConfigFile("tolerances.json");
        QString why = invalid.isEmpty()
                          ? QString()
                          : tr("not a number: %1").arg(invalid.join(QStringLiteral(", ")));
        if (why.isEmpty())
            why = describe(
                loadToleranceDefaults(std::vector<ConfigText>{{path, tolerances.toStdString()}})
                    .diagnostics);
        if (!why.isEmpty()) {
            m_toleranceProblems->setText(why);
            errors << tr("default tolerances not saved: %1").arg(why);
        } else if (QString error = writeConfigFile(path, tolerances); !error.isEmpty()) {
            errors << error;
        } else {
            m_savedTolerances = tolerances;
        }
    }
    if (m_caseTimeLimit->value() != caseTimeLimit())
        QSettings().setValue(QStringLiteral("run/caseTimeLimit"), m_caseTimeLimit->value());
    m_python->save();
    return errors.join(QLatin1Char('\n'));
}

void SettingsDialog::accept()
{
    const QString error = save();
    if (error.isEmpty()) {
        QDialog::accept();
        return;
    }
    QMessageBox::warning(this, tr("Settings not saved"), error);
}

} // namespace ptowb
