// The Cost/trace dock beside PyPTO's CostModel: a simulator case and a pypto-sim run of the same
// case, as run.json records them, shown side by side (totals, ratio, per-pipe use), the
// swimlane's path and the button that asks to open it; and the run-folder look-up that finds
// the newest pypto-sim run of a case.
#include "cost/cost_model.h"
#include "cost/pypto_line_cycles.h"
#include "cost/pypto_report.h"
#include "cost_comparison_view.h"
#include "cost_trace_panel.h"
#include "line_cost_model.h"
#include "run_folder/run_folder.h"

#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
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

// program.json and the pipe swimlane as PyPTO 0.2.0 shapes them, cut to what the mapping reads:
// op 10063 and 10064 come from kernel line 13, 10070 from line 12, 10090 from another file, and
// the synchronisation op names no line.
std::string program(const std::string& kernel)
{
    return nlohmann::json{
        {"functions",
         {{{"func_magicname", "TENSOR_softmax_kernel_2"}, {"operations", nlohmann::json::array()}},
          {{"func_magicname", "TENSOR_LOOP_ROWS_Unroll1_PATH0_hiddenfunc0_8"},
           {"operations",
            {{{"opmagic", 10063}, {"opcode", "COPY_IN"}, {"file", kernel}, {"line", 13}},
             {{"opmagic", 10064}, {"opcode", "COPY_IN"}, {"file", kernel}, {"line", 13}},
             {{"opmagic", 10070}, {"opcode", "EXP"}, {"file", kernel}, {"line", 12}},
             {{"opmagic", 10090}, {"opcode", "ADD"}, {"file", "/elsewhere/parser.py"}, {"line", 9}},
             {{"opmagic", 10094}, {"opcode", "SYNC_SRC"}}}}}}}}
        .dump();
}

std::string pipeSwimlane()
{
    auto log = [](int start, int end, const std::string& op) {
        return nlohmann::json{{"execStart", start}, {"execEnd", end}, {"tileOp", op}};
    };
    return nlohmann::json::array(
               {{{"blockIdx", 0}, {"coreType", "AIC"}},
                {{"blockIdx", 24},
                 {"coreType", "AIV"},
                 {"pipeLogs",
                  {{"MTE_IN",
                    {log(3627, 5035, "10063 COPY_IN 13 DDR_[0,0][8,256] TO UB"),
                     log(5037, 6445, "10064 COPY_IN 13 DDR_[0,0][8,256] TO UB")}},
                   {"VECTOR_ALU",
                    {log(7000, 7100, "10070 EXP"), log(7200, 7210, "10090 ADD"),
                     log(7300, 7301, "10094 SYNC_SRC"), log(7400, 7300, "10070 EXP")}}}}},
                {{"blockIdx", 25},
                 {"coreType", "AIV"},
                 {"pipeLogs", {{"VECTOR_ALU", {log(0, 50, "10070 EXP")}}}}}})
        .dump();
}

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

    void mapsCyclesToKernelLines()
    {
        QTemporaryDir dir;
        const std::string kernel = dir.filePath(QStringLiteral("kernel.py")).toStdString();
        // The kernel as the run spelled it, and as the test does: the same file.
        const std::string spelled = dir.path().toStdString() + "/./sub/../kernel.py";
        const auto mapped = cost::mapPyptoCyclesToLines(program(spelled), pipeSwimlane(), kernel);
        QVERIFY(std::holds_alternative<cost::PyptoLineMap>(mapped));
        const auto& map = std::get<cost::PyptoLineMap>(mapped);
        QCOMPARE(int(map.lines.size()), 2);
        QCOMPARE(map.lines[0].line, 12);
        QCOMPARE(map.lines[0].busyCycles, std::int64_t(100 + 50)); // two cores; a negative span
        QCOMPARE(map.lines[1].line, 13);                           // is not a duration
        QCOMPARE(map.lines[1].busyCycles, std::int64_t(1408 + 1408));
        QCOMPARE(map.lines[1].byPipe.at("MTE_IN"), std::int64_t(2816));
        QCOMPARE(map.unmappedCycles, std::int64_t(10 + 1)); // the other file's op, the sync

        // What run.json keeps reads back as the app uses it.
        const nlohmann::ordered_json cost{{"lines", cost::lineCyclesJson(map)}};
        const auto byLine = cost::busyCyclesByLine(cost);
        QCOMPARE(int(byLine.size()), 2);
        QCOMPARE(byLine.at(13), std::int64_t(2816));
    }

    void malformedSwimlanesMapNothing()
    {
        const std::string kernel = "/k/kernel.py";
        const std::string deep = std::string(100000, '[') + std::string(100000, ']');
        struct Bad
        {
            std::string program, swim;
        };
        const std::vector<Bad> errors{
            {"", pipeSwimlane()},
            {program(kernel), ""},
            {program(kernel).substr(0, 40), pipeSwimlane()},
            {program(kernel), pipeSwimlane().substr(0, 99)},
            {"[]", pipeSwimlane()},
            {R"({"functions": 3})", pipeSwimlane()},
            {program(kernel), R"({"pipeLogs": []})"},
            {deep, pipeSwimlane()},
        };
        for (const Bad& bad : errors) {
            const auto mapped = cost::mapPyptoCyclesToLines(bad.program, bad.swim, kernel);
            QVERIFY(std::holds_alternative<std::string>(mapped));
            QVERIFY(!std::get<std::string>(mapped).empty());
        }
        // Wrong types inside are skipped, never thrown.
        const std::string oddProgram = R"({"functions": [1, "x", {"operations": 5},
            {"operations": [null, {"opmagic": "1", "file": "/k/kernel.py", "line": 3},
             {"opmagic": 7, "file": 5, "line": 3}, {"opmagic": 8, "file": "/k/kernel.py",
              "line": -4}, {"opmagic": 9, "file": "/k/kernel.py", "line": 1e300},
             {"opmagic": 10, "file": "/k/kernel.py", "line": 6}]}]})";
        const std::string oddSwim = R"([1, {"pipeLogs": 3}, {"pipeLogs": {"V": 4, "W": [2,
            {"execStart": "0", "execEnd": 5, "tileOp": "10 X"},
            {"execStart": 0, "execEnd": 18446744073709551615, "tileOp": "10 X"},
            {"execStart": 0, "execEnd": 7, "tileOp": 10},
            {"execStart": 0, "execEnd": 9, "tileOp": "-10 X"},
            {"execStart": 0, "execEnd": 11, "tileOp": "10 X"}]}}])";
        const auto mapped = cost::mapPyptoCyclesToLines(oddProgram, oddSwim, kernel);
        QVERIFY(std::holds_alternative<cost::PyptoLineMap>(mapped));
        const auto& map = std::get<cost::PyptoLineMap>(mapped);
        QCOMPARE(int(map.lines.size()), 1);
        QCOMPARE(map.lines[0].line, 6);
        QCOMPARE(map.lines[0].busyCycles, std::int64_t(11));
        QCOMPARE(map.unmappedCycles, std::int64_t(7 + 9));
        // A run.json whose "lines" is malformed gives the app nothing to show, not a crash.
        for (const char* odd : {R"({"lines": 3})", R"({"lines": [1, {"line": "3"}, {"line": 0,
                 "busy_cycles": 5}, {"line": 4, "busy_cycles": -1}]})",
                                "[]", "null"})
            QVERIFY(cost::busyCyclesByLine(nlohmann::ordered_json::parse(odd)).empty());
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
        QVERIFY(
            writeFile(theirs + "/run.json", record({{"source", "pypto 0.2.0"},
                                                    {"total_cycles", parsed->totalCycles},
                                                    {"pipes", cost::pipesJson(parsed->pipes)},
                                                    {"swimlane", swimlane},
                                                    {"lines",
                                                     {{{"line", 3}, {"busy_cycles", 3000}},
                                                      {{"line", 9}, {"busy_cycles", 1000}}}}})));
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
        QVERIFY2(!text.contains(QStringLiteral("PyPTO simulates")), qPrintable(text)); // same soc
        // PyPTO's cycles of line 3 beside our estimate of it.
        QVERIFY(!panel.costTable().isColumnHidden(LineCostModel::PyptoColumn));
        const QModelIndex pyptoCell = panel.costs().index(0, LineCostModel::PyptoColumn);
        QCOMPARE(pyptoCell.data().toString(),
                 QStringLiteral("%1 (75.0%)").arg(QLocale().toString(3000)));
        const QString expected = QDir::cleanPath(theirs + "/" + QString::fromStdString(swimlane));
        QCOMPARE(view.swimlanePath(), expected);
        QVERIFY(text.contains(expected));
        QVERIFY(!view.openButton().isHidden());
        QSignalSpy open(&view, &CostComparisonView::openRequested);
        view.openButton().click();
        QCOMPARE(open.count(), 1);
        QCOMPARE(open.first().at(0).toString(), expected);

        // Our estimate for another soc says so, and how to compare like with like.
        view.setCosts(QStringLiteral("rows8"),
                      {{"source", "ptowb"}, {"soc", "KirinX90"}, {"total_cycles", 448}},
                      {{"source", "pypto 0.2.0"}, {"total_cycles", 58002}}, {});
        QVERIFY2(view.text().contains(QStringLiteral("PyPTO simulates Ascend910B2")),
                 qPrintable(view.text()));

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
        QVERIFY(panel.costTable().isColumnHidden(LineCostModel::PyptoColumn));
        QVERIFY(panel.costs().index(0, LineCostModel::PyptoColumn).data().isNull());
    }
};

QTEST_MAIN(TestCostComparison)
#include "tst_cost_comparison.moc"
