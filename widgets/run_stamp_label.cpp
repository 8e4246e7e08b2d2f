#include "run_stamp_label.h"

namespace ptowb {

RunStampLabel::RunStampLabel(const QString& placeholder, QWidget* parent)
    : QLabel(parent), m_placeholder(placeholder)
{
    setObjectName(QStringLiteral("runStamp"));
    setWordWrap(true);
    setTextFormat(Qt::RichText);
    render();
}

void RunStampLabel::setRun(const QString& stamp)
{
    m_stamp = stamp;
    m_why.clear();
    m_running.clear();
    m_whyBefore.clear(); // a reason of older results would come back when a later run ends
    render();
}

void RunStampLabel::markStale(const QString& why)
{
    if (m_stamp.isEmpty() || why == m_why) return; // nothing shown: nothing to be stale
    m_why = why;
    render();
}

void RunStampLabel::markRunning(const QString& why)
{
    if (m_stamp.isEmpty()) return;
    // A run marked while another's mark still shows keeps the reason from before both.
    if (m_running.isEmpty() || m_why != m_running) m_whyBefore = m_why;
    m_running = why;
    markStale(why);
}

void RunStampLabel::runEnded()
{
    if (m_running.isEmpty() || m_why != m_running) return;
    m_why = m_whyBefore;
    m_running.clear();
    render();
}

void RunStampLabel::reset()
{
    m_stamp.clear();
    m_why.clear();
    m_running.clear();
    m_whyBefore.clear();
    render();
}

void RunStampLabel::render()
{
    if (m_stamp.isEmpty())
        setText(QStringLiteral("<i>%1</i>").arg(m_placeholder.toHtmlEscaped()));
    else if (m_why.isEmpty())
        setText(tr("From %1").arg(m_stamp.toHtmlEscaped()));
    else
        setText(tr("<span style=\"color:#a05a00\"><b>Stale</b> — %1.</span> From %2")
                    .arg(m_why.toHtmlEscaped(), m_stamp.toHtmlEscaped()));
}

} // namespace ptowb
