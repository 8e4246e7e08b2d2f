#pragma once

#include <QWidget>
#include <nlohmann/json.hpp>

class QLabel;
class QPushButton;

namespace ptowb {

// Our cost estimate beside PyPTO's CostModel for one case (both run.json "cost" records): the
// total cycles of each and their ratio, PyPTO's per-pipe use and our per-unit cycles, and the
// path of PyPTO's swimlane (merged_swimlane.json, Perfetto's JSON) with a button that opens it.
class CostComparisonView : public QWidget
{
    Q_OBJECT

public:
    explicit CostComparisonView(QWidget* parent = nullptr);

    // `pyptoCaseDir` is the folder of the pypto-sim run of the same case ("" when there is none);
    // either record may be null.
    void setCosts(const QString& caseName, const nlohmann::ordered_json& ours,
                  const nlohmann::ordered_json& pypto, const QString& pyptoCaseDir);

    QString text() const;
    QString swimlanePath() const { return m_swimlane; }
    QPushButton& openButton() { return *m_open; }

Q_SIGNALS:
    // The button was clicked: the app opens the file (QDesktopServices by default).
    void openRequested(const QString& path);

private:
    QLabel* m_summary = nullptr;
    QLabel* m_path = nullptr;
    QPushButton* m_open = nullptr;
    QString m_swimlane;
};

} // namespace ptowb
