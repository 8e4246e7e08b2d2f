#pragma once

#include "work_pool.h"

#include <QWidget>

class QLabel;
class QLineEdit;

namespace ptowb {

// Settings ▸ Python interpreter: the Python that runs kernel.py, the reference and the simulator
// (a user setting, "python/interpreter"; never read from a project). Empty: PTOWB_PYTHON, else the
// system Python. Shows what the chosen one has — its Python, torch and pypto versions — or why
// kernels cannot run in it, checked off the GUI thread as the path changes.
class PythonSettingsPage : public QWidget
{
    Q_OBJECT

public:
    explicit PythonSettingsPage(QWidget* parent = nullptr);

    static QString chosenInterpreter();
    // Makes the stored choice the one the kernel workers use.
    static void applyChosenInterpreter();
    void save();

    QLineEdit& pathEdit() { return *m_path; }
    QLabel& statusLabel() { return *m_status; }

private:
    void check();

    QLineEdit* m_path = nullptr;
    QLabel* m_status = nullptr;
    JobTracker<QString> m_checks{this};
};

} // namespace ptowb
