#pragma once

#include <QWizard>

class QComboBox;
class QLabel;
class QLineEdit;

namespace ptowb {

// File ▸ New Operator: a template (elementwise, reduction, matmul), the op's name and
// namespace, and a folder; the project it creates validates and verifies clean.
class NewOperatorWizard : public QWizard
{
    Q_OBJECT

public:
    // `projectsFolder`: where a first project goes (the welcome page's folder of projects);
    // later ones go where the last one was made.
    explicit NewOperatorWizard(QWidget* parent = nullptr, const QString& projectsFolder = {});

    void setTemplate(const QString& name);
    void setOpName(const QString& name);
    void setNamespace(const QString& ns);
    void setFolder(const QString& folder);
    QString folder() const;
    // Creates the project; returns "" or why not (also shown in the wizard).
    QString createProject();

    void accept() override;

private:
    QComboBox* m_template = nullptr;
    QLineEdit* m_name = nullptr;
    QLineEdit* m_namespace = nullptr;
    QLineEdit* m_folder = nullptr;
    QLabel* m_description = nullptr;
    QLabel* m_error = nullptr;
};

} // namespace ptowb
