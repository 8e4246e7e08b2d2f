#include "main_window.h"
#include "recent_projects.h"
#include "run_panel.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("PTO Workbench"));
    QApplication::setOrganizationName(QStringLiteral("ptowb"));
    QApplication::setApplicationVersion(QStringLiteral(PTOWB_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Edit a PyPTO kernel and its op description side by side."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("project"), QStringLiteral("Op project folder (or its op.json)."));
    const QCommandLineOption verify(QStringLiteral("verify"), QStringLiteral("Verify the project once it is open (as F5 does)."));
    parser.addOption(verify);
    const QCommandLineOption newOperator(QStringLiteral("new-operator"), QStringLiteral("Open the New Operator wizard."));
    parser.addOption(newOperator);
    parser.process(app);

    ptowb::MainWindow window;
    const QStringList args = parser.positionalArguments();
    if (!args.isEmpty()) {
        window.openProject(QDir::current().absoluteFilePath(args.first()));
    } else {
        const QStringList recent = ptowb::RecentProjects::list();
        if (!recent.isEmpty()) window.openProject(recent.first());
    }
    window.show();
    if (parser.isSet(verify)) QMetaObject::invokeMethod(&window.runPanel(), &ptowb::RunPanel::verify, Qt::QueuedConnection);
    if (parser.isSet(newOperator)) QMetaObject::invokeMethod(&window, &ptowb::MainWindow::newOperator, Qt::QueuedConnection);
    return app.exec();
}
