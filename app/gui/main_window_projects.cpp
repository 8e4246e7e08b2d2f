// MainWindow's projects: open, close, reopen, the samples' copies, New Operator and Import Kernel,
// the recent list. What the window shows of a project is forgotten when another one opens.
#include "code_editor.h"
#include "cost_trace_panel.h"
#include "generated_glue_panel.h"
#include "import_kernel_wizard.h"
#include "main_window.h"
#include "new_operator_wizard.h"
#include "project/new_project.h"
#include "recent_projects.h"
#include "run_controller.h"
#include "trusted_folders.h"
#include "verify_target_box.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemModel>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTreeView>

namespace ptowb {

using Document = EditorSession::Document;

void MainWindow::newOperator()
{
    if (!confirmDiscard()) return;
    NewOperatorWizard wizard(this, sampleCopiesFolder());
    if (wizard.exec() == QDialog::Accepted) {
        TrustedFolders::trust(wizard.folder()); // the user just made it from a template
        openProject(wizard.folder());
    }
}

void MainWindow::importKernel()
{
    if (!confirmDiscard()) return;
    ImportKernelWizard wizard(this, sampleCopiesFolder());
    if (wizard.exec() == QDialog::Accepted && !wizard.projectFolder().isEmpty()) {
        TrustedFolders::trust(wizard.projectFolder()); // its code just ran, at the user's request
        openProject(wizard.projectFolder());
    }
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = RecentProjects::list();
    for (const QString& folder : recent)
        m_recentMenu->addAction(folder, this, [this, folder] {
            if (confirmDiscard()) openProject(folder);
        });
    m_recentMenu->setEnabled(!recent.isEmpty());
}

bool MainWindow::openProject(const QString& folderOrFile)
{
    // A run's results would land in the next project's panels.
    if (refuseWhileRunning(tr("opening another project"))) return false;
    QString error;
    if (!m_session.open(folderOrFile, error)) {
        statusBar()->showMessage(error, 10000);
        RecentProjects::remove(folderOrFile);
        rebuildRecentMenu();
        return false;
    }
    const Project& project = *m_session.project();
    const QString folder = QString::fromStdString(project.folder());
    m_projectView->setRootIndex(m_files->setRootPath(folder));
    showWelcome(false);
    forgetResults();
    m_gluePanel->reload(project.glueFolder());
    refreshVerifyTargets();
    RecentProjects::add(folder);
    RecentProjects::markOpening(folder);
    m_opening = true;
    rebuildRecentMenu();
    updateTitle();
    statusBar()->showMessage(tr("Opened %1").arg(folder), 5000);
    return true;
}

void MainWindow::reopenLastProject()
{
    QString skipped;
    const QString folder = RecentProjects::toReopen(skipped);
    if (!skipped.isEmpty()) {
        const QString message = tr("%1 was not reopened: the workbench stopped while opening it "
                                   "last time. Open it from File ▸ Open Recent.")
                                    .arg(skipped);
        m_status->setText(message);
        m_log->appendPlainText(message);
    }
    if (!folder.isEmpty()) openProject(folder);
}

QString MainWindow::sampleCopiesFolder()
{
    const QString configured = QSettings().value(QStringLiteral("samples/folder")).toString();
    if (!configured.isEmpty()) return configured;
    return QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
        .filePath(QStringLiteral("PTO Workbench"));
}

bool MainWindow::openFromCommandLine(const QString& folderOrFile)
{
    const QFileInfo named(folderOrFile);
    const QString folder =
        (named.isDir() ? QDir(folderOrFile) : named.absoluteDir()).canonicalPath();
    for (const std::string& sample : sampleProjects())
        if (!folder.isEmpty() && QDir(QString::fromStdString(sample)).canonicalPath() == folder)
            return openSample(QString::fromStdString(sample));
    return openProject(folderOrFile);
}

bool MainWindow::openSample(const QString& sampleFolder)
{
    if (refuseWhileRunning(tr("opening another project"))) return false;
    const QString copy = QDir(sampleCopiesFolder()).filePath(QFileInfo(sampleFolder).fileName());
    const bool existed = QFileInfo::exists(QDir(copy).filePath(QStringLiteral("op.json")));
    if (!existed) {
        if (const std::string error =
                copySampleProject(sampleFolder.toStdString(), copy.toStdString());
            !error.empty()) {
            QMessageBox::warning(this, tr("Cannot copy the sample"), QString::fromStdString(error));
            return false;
        }
        TrustedFolders::trust(copy); // shipped with the workbench, copied by the author
    }
    if (!openProject(copy)) return false;
    statusBar()->showMessage(existed ? tr("Opened your copy of the sample: %1").arg(copy)
                                     : tr("Copied the sample to %1").arg(copy),
                             8000);
    return true;
}

bool MainWindow::closeProject()
{
    if (!m_session.project()) return true;
    if (refuseWhileRunning(tr("closing the project"))) return false;
    if (!confirmDiscard()) return false;
    m_session.close();
    forgetResults();
    m_gluePanel->reload({});
    m_projectView->setRootIndex({});
    showWelcome(true);
    updateTitle();
    return true;
}

void MainWindow::refreshVerifyTargets()
{
    m_verifyTarget->refresh(m_session.project() ? m_session.project()->runnerConfigFiles()
                                                : std::vector<std::string>{});
}

// Results of another project (or of none) must not be shown as this one's.
void MainWindow::forgetResults()
{
    m_runs->reset();
    m_costPanel->showRun({}, {}, {}, {});
    m_session.editor(Document::Kernel)->setLineNotes({});
    m_status->clear();
}

bool MainWindow::confirmDiscard()
{
    if (!m_session.isModified()) return true;
    switch (m_prompt(this)) {
    case QMessageBox::Save: {
        QString error;
        if (m_session.saveAll(error)) return true;
        QMessageBox::warning(this, tr("Save failed"), error);
        return false;
    }
    case QMessageBox::Discard:
        return true;
    default:
        return false;
    }
}

void MainWindow::chooseProject()
{
    if (!confirmDiscard()) return;
    const QString folder = QFileDialog::getExistingDirectory(
        this, tr("Open Op Project"),
        m_session.project() ? QString::fromStdString(m_session.project()->folder()) : QString());
    if (!folder.isEmpty()) openProject(folder);
}

} // namespace ptowb
