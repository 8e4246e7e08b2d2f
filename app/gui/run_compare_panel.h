#pragma once

#include "run/verification.h"

#include <QWidget>

class QTableView;

namespace ptowb {

class RunStampLabel;
class VerificationModel;

// The Run and Compare dock: one row per case and output of the last verification, with the run
// it came from above them (stale after an edit, a new run or another project).
class RunComparePanel : public QWidget
{
    Q_OBJECT

public:
    explicit RunComparePanel(QWidget* parent = nullptr);

    void showReport(const VerificationReport& report, const QString& stamp);
    void markStale(const QString& why);
    void reset(); // no verification yet (a project was opened or closed)
    // The first row that does not pass, or -1.
    int firstFailingRow() const;
    void selectRow(int row);

    VerificationModel& model() { return *m_model; }
    QTableView& table() { return *m_table; }
    RunStampLabel& stamp() { return *m_stamp; }

Q_SIGNALS:
    void rowChosen(int row);

private:
    VerificationModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    RunStampLabel* m_stamp = nullptr;
};

} // namespace ptowb
