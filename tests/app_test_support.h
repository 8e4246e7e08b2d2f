#pragma once

// What the widget tests share: sample copies, file reads, and the event-loop gap meter.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>

namespace ptowb::testing {

// A writable copy of a sample project.
inline QString copySample(const QTemporaryDir& dir, const char* name)
{
    const QDir source(QStringLiteral(PTOWB_SOURCE_DIR "/projects/") + QLatin1String(name));
    for (const QString& f : source.entryList(QDir::Files))
        QFile::copy(source.filePath(f), dir.filePath(f));
    return dir.path();
}

inline QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

inline int lineOf(const QString& text, const QString& needle)
{
    return text.left(text.indexOf(needle)).count('\n') + 1;
}

// The longest time the event loop went without running a 5 ms timer, from start() on.
class EventLoopGapMeter
{
public:
    EventLoopGapMeter()
    {
        m_ticker.setInterval(5);
        QObject::connect(&m_ticker, &QTimer::timeout, [this] {
            m_longest = std::max(m_longest, m_clock.elapsed() - m_last);
            m_last = m_clock.elapsed();
        });
    }
    void start()
    {
        m_clock.start();
        m_last = 0;
        m_ticker.start();
    }
    void stop() { m_ticker.stop(); }
    qint64 longestMs() const { return m_longest; }
    qint64 elapsedMs() const { return m_clock.elapsed(); }

private:
    QElapsedTimer m_clock;
    QTimer m_ticker;
    qint64 m_last = 0, m_longest = 0;
};

} // namespace ptowb::testing
