#include "verify_target_box.h"

#include <QSettings>
#include <QStandardItemModel>

namespace ptowb {

namespace {

const QString kSettingsKey = QStringLiteral("verify/against");

} // namespace

VerifyTargetBox::VerifyTargetBox(QWidget* parent) : QComboBox(parent)
{
    setObjectName(QStringLiteral("verifyTarget"));
    setToolTip(tr("What Verify (F5) runs the kernel with, against the CPU reference"));
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    // Until the interpreter has been asked, the simulator is all there is.
    apply({VerifyTarget{"sim", "the built-in simulator", {}, true}});
    connect(this, &QComboBox::activated, this, [this](int) {
        QSettings().setValue(kSettingsKey, target());
        Q_EMIT targetChanged(target(), targetProducesValues());
    });
}

void VerifyTargetBox::refresh(std::vector<std::string> runnerConfigFiles)
{
    m_job.start([files = std::move(runnerConfigFiles)](
                    const std::atomic<bool>&) { return verifyTargets(loadRunnerConfigs(files)); },
                [this](std::vector<VerifyTarget> targets) { apply(std::move(targets)); });
}

void VerifyTargetBox::apply(std::vector<VerifyTarget> targets)
{
    const QString wanted = QSettings().value(kSettingsKey, QStringLiteral("sim")).toString();
    m_targets = std::move(targets);
    QSignalBlocker quiet(this); // refilling is no choice of the user's
    clear();
    auto* items = qobject_cast<QStandardItemModel*>(model());
    int chosen = 0;
    for (std::size_t i = 0; i < m_targets.size(); ++i) {
        const VerifyTarget& t = m_targets[i];
        const QString name = QString::fromStdString(t.name);
        addItem(tr("against %1").arg(name), name);
        const QString why = QString::fromStdString(t.unavailable);
        setItemData(int(i),
                    why.isEmpty()
                        ? QString::fromStdString(t.description)
                        : tr("%1 — not here: %2").arg(QString::fromStdString(t.description), why),
                    Qt::ToolTipRole);
        if (!why.isEmpty()) {
            items->item(int(i))->setEnabled(false);
            continue;
        }
        if (name == wanted) chosen = int(i);
    }
    setCurrentIndex(chosen);
    quiet.unblock();
    Q_EMIT targetChanged(target(), targetProducesValues());
    Q_EMIT refreshed();
}

QString VerifyTargetBox::target() const
{
    return currentData().toString();
}

bool VerifyTargetBox::targetProducesValues() const
{
    const int i = currentIndex();
    return i < 0 || i >= int(m_targets.size()) || m_targets[std::size_t(i)].producesValues;
}

QString VerifyTargetBox::unavailableReason(const QString& name) const
{
    for (const VerifyTarget& t : m_targets)
        if (QString::fromStdString(t.name) == name) return QString::fromStdString(t.unavailable);
    return {};
}

} // namespace ptowb
