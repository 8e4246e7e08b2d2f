#pragma once

#include "diag/diagnostic.h"
#include "spec/op_spec.h"

#include <QDialog>
#include <array>

class QCheckBox;
class QLabel;
class QLineEdit;
class QTableWidget;

class QDoubleSpinBox;

namespace ptowb {

class CodeEditor;
class PythonSettingsPage;

// Settings ▸ the user's configuration files (~/.config/ptowb): runners.json and deploy.json
// as JSON, checked as you type by the same loaders the pipeline uses, the default
// tolerances (tolerances.json) as a form, the Python interpreter kernels run in, and limits. A
// file with errors is not saved; its text stays.
class SettingsDialog : public QDialog
{
    Q_OBJECT

public:
    explicit SettingsDialog(QWidget* parent = nullptr);

    // Writes every changed file; returns "" or what could not be saved.
    QString save();

    CodeEditor& runnersEditor() { return *m_json[0].editor; }
    CodeEditor& deployEditor() { return *m_json[1].editor; }
    QTableWidget& toleranceTable() { return *m_tolerances; }
    QLineEdit& minCosineEdit() { return *m_minCosine; }
    QDoubleSpinBox& caseTimeLimitEdit() { return *m_caseTimeLimit; }
    PythonSettingsPage& pythonPage() { return *m_python; }
    // How long one case of the kernel or the reference may run in the app's verify
    // (settings "run/caseTimeLimit", seconds; the simulator's default when unset).
    static double caseTimeLimit();
    QString problemsText(int jsonTab) const;

    void accept() override;

private:
    struct JsonFile
    {
        QString name;
        CodeEditor* editor = nullptr;
        QLabel* problems = nullptr;
        Diagnostics diagnostics;
    };
    QWidget* createJsonTab(JsonFile& file, const QString& intro, const QString& example);
    QWidget* createToleranceTab();
    QWidget* createLimitsTab();
    void checkJson(JsonFile& file);
    ToleranceSpec formTolerance(QStringList& invalid) const;

    std::array<JsonFile, 2> m_json;
    QTableWidget* m_tolerances = nullptr;
    std::vector<QCheckBox*> m_criteria;
    QLineEdit* m_maxErrorRatio = nullptr;
    QLineEdit* m_minCosine = nullptr;
    QLabel* m_toleranceProblems = nullptr;
    QDoubleSpinBox* m_caseTimeLimit = nullptr;
    PythonSettingsPage* m_python = nullptr;
    QString m_savedTolerances;
};

} // namespace ptowb
