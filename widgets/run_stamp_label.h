#pragma once

#include <QLabel>

namespace ptowb {

// Which run a dock's content came from ("scale_gelu · verify on sim · 18:02:11"), and whether
// it still describes what the editors show: a newer run, an edit or another project makes it
// stale, and it says why.
class RunStampLabel : public QLabel
{
    Q_OBJECT

public:
    explicit RunStampLabel(const QString& placeholder, QWidget* parent = nullptr);

    void setRun(const QString& stamp);  // fresh results of this run
    void markStale(const QString& why); // keeps the stamp; says the content is out of date
    void reset();                       // no results: the placeholder
    // A run started that may replace the content: stale until it ends, then runEnded() puts
    // back what was said before, unless the run brought new content (setRun) or news.
    void markRunning(const QString& why);
    void runEnded();
    bool isStale() const { return !m_why.isEmpty(); }
    const QString& why() const { return m_why; }
    const QString& stamp() const { return m_stamp; }

private:
    void render();

    QString m_placeholder;
    QString m_stamp;
    QString m_why;
    QString m_running;   // the "running" reason markRunning set
    QString m_whyBefore; // the reason it replaced
};

} // namespace ptowb
