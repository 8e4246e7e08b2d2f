#pragma once

// What the widget tests share: sample copies, file reads, and the event-loop gap meter.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QList>
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

// The longest time the event loop went without running a 5 ms timer, from start() on, less the
// time the GUI thread waited for a CPU meanwhile: a busy machine delays every thread, and the
// meter is about work and waits on the GUI thread, not about the machine's load.
class EventLoopGapMeter
{
public:
    EventLoopGapMeter()
    {
        m_ticker.setInterval(5);
        QObject::connect(&m_ticker, &QTimer::timeout, [this] {
            const qint64 now = m_clock.elapsed(), waited = runQueueWaitMs();
            m_longest = std::max(m_longest, now - m_last - (waited - m_lastWaited));
            m_last = now;
            m_lastWaited = waited;
        });
    }
    void start()
    {
        m_clock.start();
        m_last = 0;
        m_lastWaited = runQueueWaitMs();
        m_ticker.start();
    }
    void stop() { m_ticker.stop(); }
    qint64 longestMs() const { return m_longest; }
    qint64 elapsedMs() const { return m_clock.elapsed(); }

private:
    // The calling thread's time runnable but not running (Linux's schedstat: on-CPU ns,
    // run-queue ns, slices); 0 where the kernel does not keep it.
    static qint64 runQueueWaitMs()
    {
        QFile stat(QStringLiteral("/proc/thread-self/schedstat"));
        if (!stat.open(QIODevice::ReadOnly)) return 0;
        const QList<QByteArray> fields = stat.readAll().simplified().split(' ');
        return fields.size() >= 2 ? fields[1].toLongLong() / 1000000 : 0;
    }

    QElapsedTimer m_clock;
    QTimer m_ticker;
    qint64 m_last = 0, m_longest = 0, m_lastWaited = 0;
};

} // namespace ptowb::testing
