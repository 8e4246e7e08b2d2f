// The Cost/trace dock beside PyPTO's CostModel: a simulator case and a pypto-sim run of the same
// case, as run.json records them, shown side by side (totals, ratio, per-pipe use), the
// swimlane's path and the button that asks to open it; and the run-folder look-up that finds
// the newest pypto-sim run of a case.
#include "cost/cost_model.h"
#include "cost/pypto_report.h"
#include "cost_comparison_view.h"
#include "cost_trace_panel.h"
#include "run_folder/run_folder.h"

#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace ptowb;

namespace {

bool writeFile(const QString& path, const QByteArray& text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text) == text.size();
}

QByteArray record(const nlohmann::ordered_json& cost)
{
    return QByteArray::fromStdString(
        nlohmann::ordered_json{{"backend", "x"}, {"status", "ok"}, {"cost", cost}}.dump());
}

// The report PyPTO 0.2.0 wrote for projects/softmax's rows8 case (8x256 fp32), cut to the
// lines the parser reads and a few around them.
const char* kSoftmaxReport = R"(=================ASC++ MachineModel Report==================
Total Cycles.....................................:     58002
Total Steps......................................:      1733
================Core Machine Top Statistics=================
Total Cycles.....................................:     58002
Used Cube Pipe Number............................:         0
Average Cube Usage...............................:      0.00    0.00%
Used Vector Pipe Number..........................:        43
Average Vector Usage.............................:    173.40    0.30%
Used MTE_IN Pipe Number..........................:        43
Average MTE_IN Usage.............................:   5759.63    9.93%
Used MTE_OUT Pipe Number.........................:        43
Average MTE_OUT Usage............................:    800.74    1.38%
===============ASC++ MachineModel Report End================
)";

} // namespace

class TestCostComparison : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsPyptoReport()
    {
        const auto report = cost::parsePyptoReport(kSoftmaxReport);
        QVERIFY(report);
        QCOMPARE(report->totalCycles, std::int64_t(58002));
        QCOMPARE(int(report->pipes.size()), 4);
        QCOMPARE(report->pipes[1].name, std::string("vector"));
        QCOMPARE(report->pipes[1].used, std::int64_t(43));
        QCOMPARE(report->pipes[1].averageCycles, 173.40);
        QVERIFY(qAbs(report->pipes[2].share - 0.0993) < 1e-9);
        QCOMPARE(report->pipes[2].name, std::string("mte_in"));
        QVERIFY(!cost::parsePyptoReport("no report here\nTotal Steps: 3\n"));
    }

    void findsNewestPyptoRun()
    {
        QTemporaryDir dir;
        const QString runs = dir.path();
        QVERIFY(writeFile(runs + "/20261202-100000-pypto-sim/rows8/run.json", record({})));
        QVERIFY(writeFile(runs + "/20261202-110000-pypto-sim/rows8/run.json", record({})));
        QVERIFY(writeFile(runs + "/20261202-120000-pypto-sim/other/run.json", record({})));
        QVERIFY(writeFile(runs + "/20261202-130000-sim/rows8/run.json", record({})));
        QVERIFY(writeFile(runs + "/not-a-run-pypto-sim/rows8/run.json", record({})));
        QCOMPARE(QString::fromStdString(
                     runfolder::latestCaseDir(runs.toStdString(), "pypto-sim", "rows8")),
                 runs + "/20261202-110000-pypto-sim/rows8");
        // A link is not followed, whatever it is named.
        QVERIFY(
            QFile::link(runs + "/20261202-110000-pypto-sim", runs + "/20261202-235959-pypto-sim"));
        QCOMPARE(QString::fromStdString(
                     runfolder::latestCaseDir(runs.toStdString(), "pypto-sim", "rows8")),
                 runs + "/20261202-110000-pypto-sim/rows8");
        QVERIFY(runfolder::latestCaseDir(runs.toStdString(), "pypto-sim", "none").empty());
    }

    void showsBothModels()
    {
        QTemporaryDir dir;
        const QString ours = dir.filePath("runs/20261202-120000-verify-sim/rows8");
        const QString theirs = dir.filePath("runs/20261202-110000-pypto-sim/rows8");
        const std::string swimlane = "pypto/output_1/" + std::string(cost::kPyptoSwimlaneFile);
        const auto parsed = cost::parsePyptoReport(kSoftmaxReport);
        QVERIFY(writeFile(ours + "/run.json",
                          record({{"source", "ptowb"},
                                  {"soc", "Ascend910B2"},
                                  {"total_cycles", 29001},
                                  {"unit_cycles", {{"vector", 16000}, {"memory", 3001}}},
                                  {"launch_cycles", 10000}})));
        QVERIFY(writeFile(theirs + "/run.json", record({{"source", "pypto 0.2.0"},
                                                        {"total_cycles", parsed->totalCycles},
                                                        {"pipes", cost::pipesJson(parsed->pipes)},
                                                        {"swimlane", swimlane}})));
        QVERIFY(
            writeFile(theirs + "/" + QString::fromStdString(swimlane), "{\"traceEvents\": []}"));
        cost::CostReport report;
        report.platform = "Ascend910B2";
        report.events.push_back({3, "pypto.exp [1, 256] float32", cost::UnitKind::Vector, 0, 1});
        const QString trace = ours + "/trace.json";
        QVERIFY(writeFile(trace, QByteArray::fromStdString(report.traceJson("softmax"))));

        CostTracePanel panel;
        QSignalSpy shown(&panel, &CostTracePanel::runShown);
        panel.showRun(trace, ours, {QStringLiteral("x")}, QStringLiteral("softmax · 12:00"),
                      theirs);
        QVERIFY(shown.wait(30000));
        CostComparisonView& view = panel.comparison();
        const QString text = view.text();
        QVERIFY2(text.contains(QStringLiteral("pypto 0.2.0")), qPrintable(text));
        QVERIFY2(text.contains(QLocale().toString(58002)), qPrintable(text));
        QVERIFY2(text.contains(QLocale().toString(29001)), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("0.50×")), qPrintable(text)); // 29001 / 58002
        QVERIFY2(text.contains(QStringLiteral("mte_in")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("cube 0")),
                 qPrintable(text)); // unused pipes left out
        QVERIFY2(text.contains(QStringLiteral("Case rows8")), qPrintable(text));
        const QString expected = QDir::cleanPath(theirs + "/" + QString::fromStdString(swimlane));
        QCOMPARE(view.swimlanePath(), expected);
        QVERIFY(text.contains(expected));
        QVERIFY(!view.openButton().isHidden());
        QSignalSpy open(&view, &CostComparisonView::openRequested);
        view.openButton().click();
        QCOMPARE(open.count(), 1);
        QCOMPARE(open.first().at(0).toString(), expected);

        // run.json is data: a swimlane path that leaves the case folder is not offered.
        QVERIFY(
            writeFile(theirs + "/run.json",
                      record({{"source", "pypto 0.2.0"},
                              {"total_cycles", 1},
                              {"swimlane", "../../20261202-120000-verify-sim/rows8/trace.json"}})));
        panel.showRun(trace, ours, {QStringLiteral("x")}, QStringLiteral("softmax · 12:00"),
                      theirs);
        QVERIFY(shown.wait(30000));
        QVERIFY(view.swimlanePath().isEmpty());
        QVERIFY(view.openButton().isHidden());

        // No pypto-sim run of the case: how to make one, our figure, and no button.
        panel.showRun(trace, ours, {QStringLiteral("x")}, QStringLiteral("softmax · 12:01"), {});
        QVERIFY(shown.wait(30000));
        QVERIFY2(view.text().contains(QStringLiteral("--backend pypto-sim")),
                 qPrintable(view.text()));
        QVERIFY2(view.text().contains(QLocale().toString(29001)), qPrintable(view.text()));
        QVERIFY(view.openButton().isHidden());
        QVERIFY(view.swimlanePath().isEmpty());
    }
};

QTEST_MAIN(TestCostComparison)
#include "tst_cost_comparison.moc"
