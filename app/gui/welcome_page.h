#pragma once

#include <QWidget>

class QListWidget;
class QListWidgetItem;

namespace ptowb {

// What the window shows before a project is open: start a new operator, open one, a sample
// project, or a recent project.
class WelcomePage : public QWidget
{
    Q_OBJECT

public:
    explicit WelcomePage(QWidget* parent = nullptr);

    // Re-reads the samples and the recent projects (done whenever the page is shown).
    void refresh();
    QListWidget& samples() { return *m_samples; }
    QListWidget& recent() { return *m_recent; }

Q_SIGNALS:
    void openRequested(const QString& folder);
    // A shipped sample: the window opens a copy of it, never the sample itself.
    void sampleRequested(const QString& sampleFolder);
    void newOperatorRequested();
    void openDialogRequested();

protected:
    void showEvent(QShowEvent* event) override;

private:
    QListWidget* m_samples = nullptr;
    QListWidget* m_recent = nullptr;
};

} // namespace ptowb
