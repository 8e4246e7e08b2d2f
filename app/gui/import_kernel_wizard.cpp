#include "import_kernel_wizard.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>
#include <QWizardPage>
#include <QtConcurrent/QtConcurrentRun>

namespace ptowb {

namespace {

enum Page
{
    FilePage,
    KernelPage,
    ResultPage
};

QLabel* errorLabel()
{
    auto* label = new QLabel;
    label->setStyleSheet(QStringLiteral("color: #b00020"));
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

// The result page is complete once the import has finished.
class ResultWizardPage : public QWizardPage
{
public:
    explicit ResultWizardPage(const ImportKernelWizard* wizard) : m_wizard(wizard) {}
    bool isComplete() const override
    {
        return !m_wizard->importRunning() && !m_wizard->projectFolder().isEmpty();
    }
    using QWizardPage::completeChanged;

private:
    const ImportKernelWizard* m_wizard;
};

} // namespace

ImportKernelWizard::ImportKernelWizard(QWidget* parent, const QString& projectsFolder)
    : QWizard(parent),
      m_projectsFolder(projectsFolder.isEmpty() ? QDir::homePath() : projectsFolder)
{
    setWindowTitle(tr("Import Kernel"));
    setOption(QWizard::NoBackButtonOnLastPage);

    auto* filePage = new QWizardPage;
    filePage->setTitle(tr("A kernel file"));
    filePage->setSubTitle(tr("A Python file with @pypto.frontend.jit kernels, as you run it today. "
                             "The project keeps it as it is, with the modules it imports from its "
                             "folder."));
    m_file = new QLineEdit;
    m_file->setObjectName(QStringLiteral("importFile"));
    auto* browse = new QPushButton(tr("Browse…"));
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(browse);
    m_folder = new QLineEdit;
    m_folder->setObjectName(QStringLiteral("importFolder"));
    m_fileError = errorLabel();
    auto* form = new QFormLayout;
    form->addRow(tr("Kernel file"), fileRow);
    form->addRow(tr("New project"), m_folder);
    auto* fileLayout = new QVBoxLayout(filePage);
    fileLayout->addLayout(form);
    fileLayout->addStretch(1);
    fileLayout->addWidget(m_fileError);
    setPage(FilePage, filePage);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Kernel file"), m_file->text(),
                                                          tr("Python files (*.py)"));
        if (!file.isEmpty()) setFile(file);
    });
    connect(m_folder, &QLineEdit::textEdited, this, [this] { m_folderEdited = true; });

    auto* kernelPage = new QWizardPage;
    kernelPage->setTitle(tr("The kernel to import"));
    kernelPage->setSubTitle(
        tr("Next runs the file's own __main__ block and test functions with the "
           "workbench's pypto to record how they call the kernel: import only a "
           "file you trust."));
    m_kernels = new QListWidget;
    m_kernels->setObjectName(QStringLiteral("importKernels"));
    auto* kernelLayout = new QVBoxLayout(kernelPage);
    kernelLayout->addWidget(m_kernels);
    setPage(KernelPage, kernelPage);

    auto* resultPage = new ResultWizardPage(this);
    resultPage->setTitle(tr("The proposed project"));
    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_report = new QPlainTextEdit;
    m_report->setObjectName(QStringLiteral("importReport"));
    m_report->setReadOnly(true);
    auto* resultLayout = new QVBoxLayout(resultPage);
    resultLayout->addWidget(m_status);
    resultLayout->addWidget(m_report, 1);
    setPage(ResultPage, resultPage);
    m_resultPage = ResultPage;

    connect(&m_watcher, &QFutureWatcher<importer::ImportResult>::finished, this,
            [this, resultPage] {
                m_result = m_watcher.result();
                m_running = false;
                showResult();
                resultPage->completeChanged();
                Q_EMIT importFinished();
            });
}

ImportKernelWizard::~ImportKernelWizard()
{
    if (m_cancel) m_cancel->store(true);
    m_watcher.waitForFinished();
}

void ImportKernelWizard::setFile(const QString& file)
{
    m_file->setText(file);
    if (!m_folderEdited)
        m_folder->setText(
            QDir(m_projectsFolder)
                .filePath(QFileInfo(file).completeBaseName() + QStringLiteral("_op")));
}

void ImportKernelWizard::setFolder(const QString& folder)
{
    m_folder->setText(folder);
    m_folderEdited = true;
}

QString ImportKernelWizard::projectFolder() const
{
    return m_result.ok ? QString::fromStdString(m_result.projectDir) : QString();
}

bool ImportKernelWizard::listKernels()
{
    m_fileError->clear();
    m_kernels->clear();
    auto listed = importer::listJitKernels(m_file->text().toStdString());
    if (auto* d = std::get_if<Diagnostic>(&listed)) {
        m_fileError->setText(QString::fromStdString(formatDiagnostic(*d)));
        return false;
    }
    const auto& kernels = std::get<std::vector<importer::JitKernel>>(listed);
    if (kernels.empty()) {
        m_fileError->setText(tr("%1 defines no @pypto.frontend.jit kernel.").arg(m_file->text()));
        return false;
    }
    for (const auto& k : kernels) {
        QStringList params;
        for (const auto& p : k.params)
            params << QString::fromStdString(p);
        QString label = tr("%1(%2)   line %3")
                            .arg(QString::fromStdString(k.name), params.join(QStringLiteral(", ")))
                            .arg(k.line);
        if (!k.inside.empty()) label += tr("   in %1").arg(QString::fromStdString(k.inside));
        auto* item = new QListWidgetItem(label);
        item->setData(Qt::UserRole, QString::fromStdString(k.name));
        m_kernels->addItem(item);
    }
    m_kernels->setCurrentRow(0);
    return true;
}

void ImportKernelWizard::startImport()
{
    importer::ImportOptions options;
    options.file = m_file->text().toStdString();
    options.outDir = m_folder->text().toStdString();
    if (auto* item = m_kernels->currentItem())
        options.function = item->data(Qt::UserRole).toString().toStdString();
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_running = true;
    m_result = {};
    m_status->setText(
        tr("Running %1's own code to record its calls of %2…")
            .arg(QFileInfo(m_file->text()).fileName(), QString::fromStdString(options.function)));
    m_report->clear();
    auto cancel = m_cancel;
    m_watcher.setFuture(QtConcurrent::run(
        [options, cancel] { return importer::importKernel(options, cancel.get()); }));
}

void ImportKernelWizard::showResult()
{
    QStringList lines;
    if (m_result.ok) {
        const int todo = countErrors(m_result.diagnostics);
        m_status->setText(
            todo ? tr("Created %1. Left to fill in: %2 (below); Problems lists them once the "
                      "project is open.")
                       .arg(QString::fromStdString(m_result.projectDir))
                       .arg(todo)
                 : tr("Created %1. Finish opens it; Verify runs its cases.")
                       .arg(QString::fromStdString(m_result.projectDir)));
        lines << tr("Inferred:");
        for (const auto& line : m_result.inferred)
            lines << QStringLiteral("  ") + QString::fromStdString(line);
    } else
        m_status->setText(tr("The import failed."));
    if (!m_result.diagnostics.empty())
        lines << QString() << tr("To fill in, and what the file's code reported:");
    for (const auto& d : m_result.diagnostics)
        lines << QStringLiteral("  ") + QString::fromStdString(formatDiagnostic(d));
    m_report->setPlainText(lines.join(QLatin1Char('\n')));
}

bool ImportKernelWizard::validateCurrentPage()
{
    if (currentId() == FilePage) return listKernels();
    return QWizard::validateCurrentPage();
}

void ImportKernelWizard::initializePage(int id)
{
    QWizard::initializePage(id);
    if (id == ResultPage) startImport();
}

void ImportKernelWizard::reject()
{
    if (m_cancel) m_cancel->store(true);
    QWizard::reject();
}

} // namespace ptowb
