#include "main_window.h"
#include "python_settings_page.h"
#include "run_controller.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QTimer>
#include <QWindow>
#include <cstdio>
#include <unistd.h>

namespace {

// Seconds since this process started, from /proc (so library loading before main counts).
double secondsSinceProcessStart()
{
    QFile stat(QStringLiteral("/proc/self/stat")), uptime(QStringLiteral("/proc/uptime"));
    if (!stat.open(QIODevice::ReadOnly) || !uptime.open(QIODevice::ReadOnly)) return -1;
    const QByteArray statText = stat.readAll();
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const QList<QByteArray> fields = statText.mid(statText.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 20) return -1;
    const double startTicks = fields[19].toDouble(); // field 22 of the whole line
    const double up = uptime.readAll().split(' ').value(0).toDouble();
    return up - startTicks / double(sysconf(_SC_CLK_TCK));
}

// Reports how long it took until the window was on screen and painted, then quits: the option
// is a measurement, not a session.
class StartupReporter : public QObject
{
public:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Expose && static_cast<QWindow*>(watched)->isExposed()) {
            watched->removeEventFilter(this);
            QTimer::singleShot(0, this, [] {
                std::fprintf(stderr, "ptowb: window shown %.0f ms after start\n",
                             secondsSinceProcessStart() * 1000);
                QCoreApplication::quit();
            });
        }
        return false;
    }
};

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("PTO Workbench"));
    QApplication::setOrganizationName(QStringLiteral("ptowb"));
    QApplication::setApplicationVersion(QStringLiteral(PTOWB_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Edit a PyPTO kernel and its op description side by side."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("project"),
                                 QStringLiteral("Op project folder (or its op.json)."));
    const QCommandLineOption verify(
        QStringLiteral("verify"),
        QStringLiteral("Verify the project once it is open (as F5 does)."));
    parser.addOption(verify);
    const QCommandLineOption newOperator(QStringLiteral("new-operator"),
                                         QStringLiteral("Open the New Operator wizard."));
    parser.addOption(newOperator);
    const QCommandLineOption startupTime(
        QStringLiteral("startup-time"),
        QStringLiteral("Print how long the window took to appear, then quit."));
    parser.addOption(startupTime);
    parser.process(app);

    ptowb::PythonSettingsPage::applyChosenInterpreter();
    ptowb::MainWindow window;
    const QStringList args = parser.positionalArguments();
    if (!args.isEmpty()) {
        window.openFromCommandLine(QDir::current().absoluteFilePath(args.first()));
    } else {
        window.reopenLastProject();
    }
    StartupReporter startupReporter;
    if (parser.isSet(startupTime)) {
        window.winId(); // creates the native window, so its expose event can be watched
        window.windowHandle()->installEventFilter(&startupReporter);
    }
    window.show();
    if (parser.isSet(verify))
        QMetaObject::invokeMethod(&window.runs(), &ptowb::RunController::verify,
                                  Qt::QueuedConnection);
    if (parser.isSet(newOperator))
        QMetaObject::invokeMethod(&window, &ptowb::MainWindow::newOperator, Qt::QueuedConnection);
    return app.exec();
}
