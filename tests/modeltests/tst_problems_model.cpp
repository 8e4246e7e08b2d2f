#include "problems_model.h"

#include <QAbstractItemModelTester>
#include <QGuiApplication>
#include <QIcon>
#include <QImage>
#include <QSignalSpy>
#include <QTest>

using namespace ptowb;

namespace {

Diagnostic diagnostic(Severity severity, std::string file, int line, int col, std::string message,
                      std::string code = {})
{
    Diagnostic d;
    d.severity = severity;
    d.file = std::move(file);
    d.line = line;
    d.col = col;
    d.message = std::move(message);
    d.code = std::move(code);
    return d;
}

QImage iconImage(const QVariant& decoration)
{
    return decoration.value<QIcon>().pixmap(16, 16).toImage();
}

} // namespace

class TestProblemsModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void runsWithoutWidgets()
    {
        // The model links Qt Gui alone: its test application is no QApplication.
        QVERIFY(!QCoreApplication::instance()->inherits("QApplication"));
    }

    void sortsErrorsFirstThenByFileAndPosition()
    {
        ProblemsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDiagnostics({diagnostic(Severity::Warning, "/p/a/op.json", 1, 1, "unused"),
                              diagnostic(Severity::Error, "/p/b/kernel.py", 2, 1, "late"),
                              diagnostic(Severity::Note, "/p/a/op.json", 9, 1, "see here"),
                              diagnostic(Severity::Error, "/p/a/op.json", 7, 3, "second"),
                              diagnostic(Severity::Error, "/p/a/op.json", 7, 2, "first")});
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(model.columnCount(), int(ProblemsModel::ColumnCount));
        QStringList messages;
        for (int row = 0; row < model.rowCount(); ++row)
            messages << model.index(row, ProblemsModel::MessageColumn).data().toString();
        QCOMPARE(messages, QStringList({"first", "second", "late", "unused", "see here"}));
        QCOMPARE(model.diagnosticAt(2).file, std::string("/p/b/kernel.py"));
        QCOMPARE(model.errorCount(), 3);
        QCOMPARE(model.warningCount(), 2); // a note counts with the warnings
    }

    void showsEachColumnAndRole()
    {
        ProblemsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDiagnostics({diagnostic(Severity::Error, "/p/op.json", 4, 9, "bad shape", "E101"),
                              diagnostic(Severity::Warning, "/p/kernel.py", 0, 0, "no line")});
        const QModelIndex error = model.index(0, ProblemsModel::SeverityColumn);
        QCOMPARE(error.data().toString(), QStringLiteral("error"));
        QCOMPARE(model.index(1, ProblemsModel::SeverityColumn).data().toString(),
                 QStringLiteral("warning"));
        QCOMPARE(model.index(0, ProblemsModel::LocationColumn).data().toString(),
                 QStringLiteral("op.json:4:9"));
        // Without a line, the location is the file's name alone.
        QCOMPARE(model.index(1, ProblemsModel::LocationColumn).data().toString(),
                 QStringLiteral("kernel.py"));
        QCOMPARE(error.data(Qt::ToolTipRole).toString(),
                 QStringLiteral("/p/op.json:4:9: error: bad shape [E101]"));
        QCOMPARE(error.data(ProblemsModel::FileRole).toString(), QStringLiteral("/p/op.json"));
        QCOMPARE(error.data(ProblemsModel::LineRole).toInt(), 4);
        QCOMPARE(error.data(ProblemsModel::ColumnRole).toInt(), 9);
        QCOMPARE(error.data(ProblemsModel::CodeRole).toString(), QStringLiteral("E101"));
        QVERIFY(!model.index(0, 0).data(Qt::UserRole + 100).isValid());
    }

    void decoratesTheSeverityColumnOnly()
    {
        ProblemsModel model;
        model.setDiagnostics({diagnostic(Severity::Error, "a", 1, 1, "e"),
                              diagnostic(Severity::Warning, "a", 2, 1, "w")});
        const QVariant error =
            model.index(0, ProblemsModel::SeverityColumn).data(Qt::DecorationRole);
        const QVariant warning =
            model.index(1, ProblemsModel::SeverityColumn).data(Qt::DecorationRole);
        QVERIFY(!error.value<QIcon>().isNull());
        QVERIFY(!warning.value<QIcon>().isNull());
        QVERIFY(iconImage(error) != iconImage(warning));
        QVERIFY(!model.index(0, ProblemsModel::MessageColumn).data(Qt::DecorationRole).isValid());
    }

    void headers()
    {
        ProblemsModel model;
        QCOMPARE(model.headerData(ProblemsModel::SeverityColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Severity"));
        QCOMPARE(model.headerData(ProblemsModel::MessageColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Message"));
        QCOMPARE(model.headerData(ProblemsModel::LocationColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Location"));
        QVERIFY(!model.headerData(0, Qt::Vertical).isValid());
        QVERIFY(!model.headerData(0, Qt::Horizontal, Qt::ToolTipRole).isValid());
    }

    void eachListResetsTheModel()
    {
        ProblemsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy aboutToReset(&model, &QAbstractItemModel::modelAboutToBeReset);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.setDiagnostics({diagnostic(Severity::Error, "a", 1, 1, "e")});
        QCOMPARE(model.rowCount(), 1);
        model.setDiagnostics({});
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.errorCount(), 0);
        QCOMPARE(aboutToReset.count(), 2);
        QCOMPARE(reset.count(), 2);
        // A table: no row has children.
        model.setDiagnostics({diagnostic(Severity::Error, "a", 1, 1, "e")});
        QCOMPARE(model.rowCount(model.index(0, 0)), 0);
        QCOMPARE(model.columnCount(model.index(0, 0)), 0);
    }
};

QTEST_MAIN(TestProblemsModel)
#include "tst_problems_model.moc"
