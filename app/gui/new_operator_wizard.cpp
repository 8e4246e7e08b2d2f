#include "new_operator_wizard.h"

#include "project/new_project.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>
#include <QWizardPage>

namespace ptowb {

namespace {

QString describe(const QString& name)
{
    if (name == QLatin1String("elementwise"))
        return QObject::tr("y = sigmoid(x) · alpha on a tensor of any shape: one op, one "
                           "parameter, float16 and float32.");
    if (name == QLatin1String("reduction"))
        return QObject::tr(
            "The sum of every row of a matrix: a loop over row views, reduced tile by tile.");
    if (name == QLatin1String("matmul"))
        return QObject::tr(
            "y = a @ b for float16 or bfloat16 matrices, accumulated in float32 on the cube unit.");
    return {};
}

} // namespace

NewOperatorWizard::NewOperatorWizard(QWidget* parent, const QString& projectsFolder)
    : QWizard(parent)
{
    setWindowTitle(tr("New Operator"));
    setOption(QWizard::NoBackButtonOnLastPage);
    auto* page = new QWizardPage;
    page->setTitle(tr("Start an operator from a template"));
    page->setSubTitle(tr("The project gets op.json, kernel.py and reference.py; it validates and "
                         "verifies against the simulator as it is."));

    m_template = new QComboBox;
    for (const auto& name : templateNames())
        m_template->addItem(QString::fromStdString(name));
    m_description = new QLabel;
    m_description->setWordWrap(true);
    m_name = new QLineEdit(QStringLiteral("my_op"));
    m_namespace = new QLineEdit(QStringLiteral("custom"));
    // In the folder the last project was made in: an author keeps their ops together.
    const QString parentFolder =
        QSettings()
            .value(QStringLiteral("wizard/parentFolder"),
                   projectsFolder.isEmpty() ? QDir::homePath() : projectsFolder)
            .toString();
    m_folder = new QLineEdit(QDir(parentFolder).filePath(QStringLiteral("my_op")));
    auto* browse = new QPushButton(tr("Browse…"));
    auto* folderRow = new QHBoxLayout;
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(browse);
    m_error = new QLabel;
    m_error->setStyleSheet(QStringLiteral("color: #b00020"));
    m_error->setWordWrap(true);

    auto* form = new QFormLayout;
    form->addRow(tr("Template"), m_template);
    form->addRow(QString(), m_description);
    form->addRow(tr("Op name"), m_name);
    form->addRow(tr("Namespace"), m_namespace);
    form->addRow(tr("Folder"), folderRow);
    auto* layout = new QVBoxLayout(page);
    layout->addLayout(form);
    layout->addStretch(1);
    layout->addWidget(m_error);
    addPage(page);

    auto updateDescription = [this] {
        m_description->setText(describe(m_template->currentText()));
    };
    connect(m_template, &QComboBox::currentTextChanged, this, updateDescription);
    updateDescription();
    // The folder follows the name until the author picks one.
    connect(m_name, &QLineEdit::textEdited, this, [this](const QString& name) {
        m_folder->setText(QDir(QFileInfo(m_folder->text()).absolutePath()).filePath(name));
    });
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString parentFolder =
            QFileDialog::getExistingDirectory(this, tr("Where to create the project"));
        if (!parentFolder.isEmpty()) m_folder->setText(QDir(parentFolder).filePath(m_name->text()));
    });
}

void NewOperatorWizard::setTemplate(const QString& name)
{
    m_template->setCurrentText(name);
}
void NewOperatorWizard::setOpName(const QString& name)
{
    m_name->setText(name);
}
void NewOperatorWizard::setNamespace(const QString& ns)
{
    m_namespace->setText(ns);
}
void NewOperatorWizard::setFolder(const QString& folder)
{
    m_folder->setText(folder);
}
QString NewOperatorWizard::folder() const
{
    return m_folder->text();
}

QString NewOperatorWizard::createProject()
{
    NewProjectOptions options;
    options.folder = m_folder->text().toStdString();
    options.templateName = m_template->currentText().toStdString();
    options.name = m_name->text().trimmed().toStdString();
    options.ns = m_namespace->text().trimmed().toStdString();
    const QString error = QString::fromStdString(createProjectFromTemplate(options));
    m_error->setText(error);
    if (error.isEmpty())
        QSettings().setValue(QStringLiteral("wizard/parentFolder"),
                             QFileInfo(m_folder->text()).absolutePath());
    return error;
}

void NewOperatorWizard::accept()
{
    if (createProject().isEmpty()) QWizard::accept();
}

} // namespace ptowb
