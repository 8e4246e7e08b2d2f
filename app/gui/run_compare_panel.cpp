#include "run_compare_panel.h"

#include "run_stamp_label.h"
#include "verification_model.h"

#include <QHeaderView>
#include <QTableView>
#include <QVBoxLayout>

namespace ptowb {

RunComparePanel::RunComparePanel(QWidget* parent) : QWidget(parent)
{
    m_model = new VerificationModel(this);
    m_stamp = new RunStampLabel(tr("Verify (F5) to compare the kernel with its reference"));
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("runCompareView"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    // The reason is the one long column: it takes the room left and wraps.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(VerificationModel::ReasonColumn,
                                                      QHeaderView::Stretch);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_stamp);
    layout->addWidget(m_table, 1);
    connect(m_table, &QTableView::clicked, this,
            [this](const QModelIndex& index) { Q_EMIT rowChosen(index.row()); });
    connect(m_table, &QTableView::activated, this,
            [this](const QModelIndex& index) { Q_EMIT rowChosen(index.row()); });
}

void RunComparePanel::showReport(const VerificationReport& report, const QString& stamp)
{
    m_model->setReport(report);
    m_stamp->setRun(stamp);
}

void RunComparePanel::markStale(const QString& why)
{
    m_stamp->markStale(why);
}

void RunComparePanel::reset()
{
    m_model->setReport({});
    m_stamp->reset();
}

int RunComparePanel::firstFailingRow() const
{
    for (int row = 0; row < m_model->rowCount(); ++row)
        if (!m_model->index(row, 0).data(VerificationModel::PassRole).toBool()) return row;
    return -1;
}

void RunComparePanel::selectRow(int row)
{
    m_table->selectRow(row);
}

} // namespace ptowb
