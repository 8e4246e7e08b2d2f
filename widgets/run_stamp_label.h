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
    bool isStale() const { return !m_why.isEmpty(); }
    const QString& stamp() const { return m_stamp; }

private:
    void render();

    QString m_placeholder;
    QString m_stamp;
    QString m_why;
};

} // namespace ptowb
