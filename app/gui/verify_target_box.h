#pragma once

#include "run/backend.h"
#include "work_pool.h"

#include <QComboBox>
#include <string>
#include <vector>

namespace ptowb {

// The toolbar's "against" choice: what Verify runs the kernel with (run/backend.h's
// verifyTargets: the simulator, the real PyPTO, the project's runners). One that cannot run here
// stays listed, greyed, with why as its tooltip. The list is made off the GUI thread: it asks the
// chosen Python interpreter whether it has pypto and torch_npu. The choice is kept in the
// settings; a choice the project does not offer falls back to the simulator.
class VerifyTargetBox : public QComboBox
{
    Q_OBJECT

public:
    explicit VerifyTargetBox(QWidget* parent = nullptr);

    // Lists the targets for a project's runner files (none: the built-in ones).
    void refresh(std::vector<std::string> runnerConfigFiles);
    QString target() const;
    // False for a target that only measures (pypto-sim): Export and Redeploy verify on sim.
    bool targetProducesValues() const;
    // Why the named target cannot run here ("" when it can, or when it is not listed).
    QString unavailableReason(const QString& name) const;

Q_SIGNALS:
    // A new list was applied (the choice may have fallen back to sim).
    void refreshed();
    void targetChanged(const QString& name, bool producesValues);

private:
    void apply(std::vector<VerifyTarget> targets);

    std::vector<VerifyTarget> m_targets;
    JobTracker<std::vector<VerifyTarget>> m_job{this};
};

} // namespace ptowb
