// File ▸ Import Kernel: the file's kernels are listed without running it; the import runs off the
// GUI thread and its page shows what was inferred and what is left; a file without a kernel
// stops at the first page with the reason.
#include "import_kernel_wizard.h"

#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace ptowb;

class TestImportWizard : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void importsAKernelFile();
    void fileWithoutKernelStaysOnTheFirstPage();
};

void TestImportWizard::importsAKernelFile()
{
    QTemporaryDir dir;
    ImportKernelWizard wizard(nullptr, dir.path());
    wizard.setFile(QStringLiteral(PTOWB_TEST_DATA "/import_kernels/row_norm.py"));
    // The default project folder: the kernel file's name in the projects folder.
    QCOMPARE(wizard.findChild<QLineEdit*>(QStringLiteral("importFolder"))->text(),
             dir.filePath(QStringLiteral("row_norm_op")));
    QVERIFY(wizard.listKernels());
    auto* kernels = wizard.findChild<QListWidget*>(QStringLiteral("importKernels"));
    QCOMPARE(kernels->count(), 1);
    QVERIFY(kernels->item(0)->text().startsWith(
        QStringLiteral("row_norm_kernel(x, gamma, out, config)")));

    QSignalSpy finished(&wizard, &ImportKernelWizard::importFinished);
    wizard.startImport();
    QVERIFY(wizard.importRunning());
    QVERIFY(finished.wait(300000));
    QCOMPARE(wizard.projectFolder(), dir.filePath(QStringLiteral("row_norm_op")));
    QVERIFY(QFile::exists(dir.filePath(QStringLiteral("row_norm_op/op.json"))));
    const QString report =
        wizard.findChild<QPlainTextEdit*>(QStringLiteral("importReport"))->toPlainText();
    QVERIFY2(report.contains(QStringLiteral("output out: shape x.shape")), qPrintable(report));
    QVERIFY2(report.contains(QStringLiteral("reference: row_norm_golden()")), qPrintable(report));
}

void TestImportWizard::fileWithoutKernelStaysOnTheFirstPage()
{
    QTemporaryDir dir;
    ImportKernelWizard wizard(nullptr, dir.path());
    wizard.setFile(QStringLiteral(PTOWB_TEST_DATA "/import_kernels/no_kernel.py"));
    QVERIFY(!wizard.listKernels());
    bool named = false;
    for (auto* label : wizard.findChildren<QLabel*>())
        named = named ||
                label->text().contains(QStringLiteral("defines no @pypto.frontend.jit kernel"));
    QVERIFY(named);
    QVERIFY(wizard.projectFolder().isEmpty());
}

QTEST_MAIN(TestImportWizard)
#include "tst_import_wizard.moc"
