#pragma once

#include "importer/kernel_import.h"

#include <QFutureWatcher>
#include <QWizard>
#include <atomic>
#include <memory>

class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;

namespace ptowb {

// File ▸ Import Kernel: a kernel file (the picker), then the jit kernels found in it (read, not
// run), then the project proposed from the file's own calls: what was inferred and what is left
// to fill in. Importing runs the file's main and test functions — the page says so before it
// does. Finish opens the new project.
class ImportKernelWizard : public QWizard
{
    Q_OBJECT

public:
    explicit ImportKernelWizard(QWidget* parent = nullptr, const QString& projectsFolder = {});
    ~ImportKernelWizard() override;

    void setFile(const QString& file);
    void setFolder(const QString& folder);
    // The project import made ("" until it succeeded), and its import's result.
    QString projectFolder() const;
    const importer::ImportResult& result() const { return m_result; }
    // Lists the file's kernels (page 2); false, with the error shown, when there are none.
    bool listKernels();
    // Runs the import of the selected kernel; `finished` follows.
    void startImport();
    bool importRunning() const { return m_running; }

Q_SIGNALS:
    void importFinished();

protected:
    bool validateCurrentPage() override;
    void initializePage(int id) override;
    void reject() override;

private:
    void showResult();

    QLineEdit* m_file = nullptr;
    QLineEdit* m_folder = nullptr;
    QLabel* m_fileError = nullptr;
    QListWidget* m_kernels = nullptr;
    QLabel* m_status = nullptr;
    QPlainTextEdit* m_report = nullptr;
    QString m_projectsFolder;
    bool m_folderEdited = false;
    bool m_running = false;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QFutureWatcher<importer::ImportResult> m_watcher;
    importer::ImportResult m_result;
    int m_resultPage = -1;
};

} // namespace ptowb
