// The screenshots in docs/screenshots: the window at 1400×860 and 1920×1080 with a failing
// verify of a sample (Run and Compare, Tensor diff, the editors), the welcome page at 1400×860,
// and Settings ▸ Python interpreter; given a Python with PyPI's pypto, the softmax sample verified
// on the simulator and then on pypto-sim (Cost/trace with both models, per line too).
//
//     QT_QPA_PLATFORM=offscreen take_screenshots OUTPUT_FOLDER [PYTHON_WITH_PYPTO]
//
// Uses its own settings (Qt's test mode), so the user's layout and recent projects stay.
#include "code_editor.h"
#include "import_kernel_wizard.h"
#include "main_window.h"
#include "python_settings_page.h"
#include "run_controller.h"
#include "settings_dialog.h"
#include "tensor_diff_panel.h"
#include "trusted_folders.h"
#include "verify_target_box.h"
#include "worker_client/worker_client.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QEventLoop>
#include <QLabel>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <cstdio>

using namespace ptowb;

namespace {

void settle(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

void runAndWait(MainWindow& w, QAction* action)
{
    QEventLoop done;
    QObject::connect(&w.runs().runner(), &PipelineRunner::finished, &done, &QEventLoop::quit);
    action->trigger();
    done.exec();
}

bool save(QWidget& widget, const QString& path)
{
    const bool ok = widget.grab().save(path);
    std::fprintf(stderr, "%s %s\n", ok ? "wrote" : "could not write", qPrintable(path));
    return ok;
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("ptowb-screenshots"));
    QApplication::setApplicationName(QStringLiteral("PTO Workbench"));
    if (argc < 2) {
        std::fprintf(stderr, "usage: take_screenshots OUTPUT_FOLDER\n");
        return 2;
    }
    const QDir out(QString::fromLocal8Bit(argv[1]));
    TrustedFolders::prompt() = [](const QString&, const QString&) { return true; };
    bool ok = true;
    for (const QSize size : {QSize(1400, 860), QSize(1920, 1080)}) {
        const QString suffix = QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
        MainWindow w;
        w.resize(size);
        w.show();
        settle(300);
        if (size.width() == 1400)
            ok = save(w, out.filePath(QStringLiteral("welcome-%1.png").arg(suffix))) && ok;
        QTemporaryDir copies; // the sample's copy, with its runs
        QSettings().setValue(QStringLiteral("samples/folder"), copies.path());
        if (!w.openSample(QStringLiteral(PTOWB_SOURCE_DIR "/projects/scale_gelu"))) return 1;
        CodeEditor* kernel = w.session().editor(EditorSession::Document::Kernel);
        kernel->setText(
            kernel->text().replace(QStringLiteral("g * scale"), QStringLiteral("g * scale * 2.0")));
        QEventLoop done;
        QObject::connect(&w.runs().runner(), &PipelineRunner::finished, &done, &QEventLoop::quit);
        w.runs().verifyAction()->trigger();
        done.exec();
        settle(1500);                  // the diff and the trace load off the GUI thread
        w.statusBar()->clearMessage(); // "Copied the sample to /tmp/…"
        ok = save(w, out.filePath(QStringLiteral("workbench-%1.png").arg(suffix))) && ok;
    }
    if (argc > 2) {
        worker::WorkerClient::choosePython(argv[2]);
        QTemporaryDir copies;
        QSettings().setValue(QStringLiteral("samples/folder"), copies.path());
        MainWindow w;
        w.resize(1400, 860);
        w.show();
        if (!w.openSample(QStringLiteral(PTOWB_SOURCE_DIR "/projects/softmax"))) return 1;
        settle(3000); // the target list asks the interpreter
        VerifyTargetBox& box = w.verifyTarget();
        for (const char* target : {"sim", "pypto-sim"}) {
            box.setCurrentIndex(box.findData(QLatin1String(target)));
            Q_EMIT box.activated(box.currentIndex());
            runAndWait(w, w.runs().verifyAction());
        }
        settle(1500);
        w.statusBar()->clearMessage();
        ok = save(w, out.filePath(QStringLiteral("verify-pypto-sim.png"))) && ok;
    }
    {
        SettingsDialog settings;
        settings.resize(760, 420);
        settings.findChild<QTabWidget*>()->setCurrentWidget(&settings.pythonPage());
        settings.show();
        for (int waited = 0;
             waited < 30000 &&
             settings.pythonPage().statusLabel().text().startsWith(QStringLiteral("Checking"));
             waited += 100)
            settle(100);
        ok = save(settings, out.filePath(QStringLiteral("settings-python.png"))) && ok;
    }
    { // File ▸ Import Kernel, on its last page after importing a test kernel file
        QTemporaryDir projects;
        ImportKernelWizard wizard(nullptr, projects.path());
        wizard.resize(760, 520);
        wizard.setFile(
            QStringLiteral(PTOWB_SOURCE_DIR "/tests/data/import_kernels/col_sum_numpy.py"));
        wizard.show();
        wizard.next();
        ok = save(wizard, out.filePath(QStringLiteral("import-kernels.png"))) && ok;
        wizard.next();
        for (int waited = 0; waited < 120000 && wizard.importRunning(); waited += 100)
            settle(100);
        ok = save(wizard, out.filePath(QStringLiteral("import-result.png"))) && ok;
    }
    return ok ? 0 : 1;
}
