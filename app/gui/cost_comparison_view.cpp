#include "cost_comparison_view.h"

#include "cost/pypto_report.h"

#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace ptowb {

namespace {

QString cycles(const nlohmann::ordered_json& cost)
{
    return QLocale().toString(qlonglong(cost.value("total_cycles", std::int64_t(0))));
}

QString source(const nlohmann::ordered_json& cost)
{
    QString who = QString::fromStdString(cost.value("source", std::string())).toHtmlEscaped();
    if (cost.contains("soc"))
        who += QStringLiteral(" (%1)").arg(
            QString::fromStdString(cost.value("soc", std::string())).toHtmlEscaped());
    return who;
}

// "vector 173 (0.30%), mte_in 5,760 (9.93%)": PyPTO's average busy cycles of each pipe it used.
QString pyptoPipes(const nlohmann::ordered_json& cost)
{
    QStringList parts;
    const auto pipes = cost.value("pipes", nlohmann::ordered_json::object()); // outlives the loop
    for (const auto& [name, pipe] : pipes.items())
        if (pipe.value("used", 0) > 0)
            parts << QStringLiteral("%1 %2 (%3%)")
                         .arg(QString::fromStdString(name).toHtmlEscaped(),
                              QLocale().toString(pipe.value("average_cycles", 0.0), 'f', 0),
                              QString::number(100 * pipe.value("share", 0.0), 'f', 2));
    return parts.join(QStringLiteral(", "));
}

QString ourUnits(const nlohmann::ordered_json& cost)
{
    QStringList parts;
    const auto units = cost.value("unit_cycles", nlohmann::ordered_json::object());
    for (const auto& [name, value] : units.items())
        if (value.get<std::int64_t>() > 0)
            parts << QStringLiteral("%1 %2").arg(
                QString::fromStdString(name).toHtmlEscaped(),
                QLocale().toString(qlonglong(value.get<std::int64_t>())));
    if (auto launch = cost.value("launch_cycles", std::int64_t(0)); launch > 0)
        parts << QObject::tr("launch %1").arg(QLocale().toString(qlonglong(launch)));
    return parts.join(QStringLiteral(", "));
}

} // namespace

CostComparisonView::CostComparisonView(QWidget* parent) : QWidget(parent)
{
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("costComparison"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_path = new QLabel;
    m_path->setObjectName(QStringLiteral("swimlanePath"));
    m_path->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_path->setWordWrap(true);
    m_open = new QPushButton(tr("Open swimlane"));
    m_open->setObjectName(QStringLiteral("openSwimlane"));
    m_open->setToolTip(tr("Opens PyPTO's merged_swimlane.json with the desktop's viewer; it is "
                          "Perfetto's JSON (ui.perfetto.dev opens it too)"));
    connect(m_open, &QPushButton::clicked, this, [this] { Q_EMIT openRequested(m_swimlane); });
    // The dock keeps its size when results arrive: the summary has room for its three lines from
    // the start (the whole text in its tooltip), and the swimlane row keeps its place while hidden.
    m_summary->setFixedHeight(3 * m_summary->fontMetrics().lineSpacing() + 4);
    for (QWidget* w : {static_cast<QWidget*>(m_path), static_cast<QWidget*>(m_open)}) {
        QSizePolicy policy = w->sizePolicy();
        policy.setRetainSizeWhenHidden(true);
        w->setSizePolicy(policy);
    }
    auto* pathRow = new QHBoxLayout;
    pathRow->setContentsMargins(0, 0, 0, 0);
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(m_open);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_summary);
    layout->addLayout(pathRow);
    setCosts({}, nullptr, nullptr, {});
}

void CostComparisonView::setCosts(const QString& caseName, const nlohmann::ordered_json& ours,
                                  const nlohmann::ordered_json& pypto, const QString& pyptoCaseDir)
{
    const bool haveOurs = ours.is_object() && ours.contains("total_cycles");
    const bool havePypto = pypto.is_object() && pypto.contains("total_cycles");
    QString text;
    if (!havePypto) {
        text = tr("<b>PyPTO</b>: no pypto-sim run of this case yet (<code>ptowb-cli run PROJECT "
                  "--backend pypto-sim --python PY</code>, with an interpreter that has the real "
                  "pypto).");
    } else {
        text = tr("<b>Case %1</b>: PyPTO's CostModel (%2) counts <b>%3</b> cycles")
                   .arg(caseName.toHtmlEscaped(), source(pypto), cycles(pypto));
        if (haveOurs) {
            const double theirs = double(pypto.value("total_cycles", std::int64_t(0)));
            const double mine = double(ours.value("total_cycles", std::int64_t(0)));
            text += tr("; our estimate (%1) <b>%2</b>").arg(source(ours), cycles(ours));
            if (theirs > 0) text += tr(", %1× PyPTO's").arg(mine / theirs, 0, 'f', 2);
            const std::string soc = ours.value("soc", std::string());
            if (!soc.empty() && soc != cost::kPyptoSimulatedPlatform)
                text +=
                    tr(" (ours is for %1, PyPTO simulates %2: <code>verify --platform %2</code> "
                       "compares like with like)")
                        .arg(QString::fromStdString(soc).toHtmlEscaped(),
                             QLatin1String(cost::kPyptoSimulatedPlatform));
        }
        text += QStringLiteral(".");
        if (const QString pipes = pyptoPipes(pypto); !pipes.isEmpty())
            text += tr("<br>PyPTO per pipe (average busy cycles): %1").arg(pipes);
        if (const QString units = haveOurs ? ourUnits(ours) : QString(); !units.isEmpty())
            text += tr("<br>Ours per unit: %1").arg(units);
    }
    if (!havePypto && haveOurs)
        text += tr("<br>Our estimate (%1): <b>%2</b> cycles.").arg(source(ours), cycles(ours));
    m_summary->setText(text);
    m_summary->setToolTip(text);
    m_swimlane.clear();
    if (havePypto && pypto.contains("swimlane") && !pyptoCaseDir.isEmpty()) {
        // run.json is data: its path must stay inside the case folder, and no link is followed.
        const QString folder = QDir::cleanPath(pyptoCaseDir);
        const QString path = QDir::cleanPath(
            QDir(folder).filePath(QString::fromStdString(pypto.value("swimlane", std::string()))));
        const QFileInfo file(path);
        if (path.startsWith(folder + QLatin1Char('/')) && file.isFile() && !file.isSymLink())
            m_swimlane = path;
    }
    m_path->setText(m_swimlane.isEmpty() ? QString()
                                         : tr("Swimlane: %1").arg(m_swimlane.toHtmlEscaped()));
    m_path->setVisible(!m_swimlane.isEmpty());
    m_open->setVisible(!m_swimlane.isEmpty());
}

QString CostComparisonView::text() const
{
    return m_summary->text() + QLatin1Char('\n') + m_path->text();
}

} // namespace ptowb
