#pragma once

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent>
#include <atomic>
#include <functional>
#include <memory>

namespace ptowb {

// The threads that run the workbench's long jobs (pipeline, validation, loading results).
// Not Qt's global pool: Qt paints with that one, and a painter waiting behind a minute-long
// verify would freeze the window.
QThreadPool* workPool();

// Starts every thread of the work pool and of Qt's global pool now and keeps them. A thread
// started later, while a job loads libtorch, would wait for the dynamic loader's lock (held
// for the whole load, most of a second) — and the GUI thread starts threads for painting.
void startThreadsAhead();

// One kind of background job of one object (loading a diff, checking the files, running the
// pipeline), as hotspot's JobTracker: every start() makes a job with an id and a cancellation
// flag, runs it on the work pool, and applies its result on the GUI thread — the newest job's
// only. A later start(), or cancel(), raises the flag of the job before it, which a long job
// polls to stop early; the result of a superseded job is dropped, and nothing is applied once
// `context` is gone.
template <class Result> class JobTracker
{
public:
    using Job = std::function<Result(const std::atomic<bool>& cancelled)>;

    explicit JobTracker(QObject* context) : m_context(context) {}
    ~JobTracker() { waitForFinished(); }
    JobTracker(const JobTracker&) = delete;
    JobTracker& operator=(const JobTracker&) = delete;

    // Returns the new job's id. The result arrives through the event loop, never inside this
    // call, even when the job is done before it returns.
    quint64 start(Job job, std::function<void(Result)> apply)
    {
        cancel();
        const quint64 id = ++m_jobId;
        auto cancelled = std::make_shared<std::atomic<bool>>(false);
        m_cancelled = cancelled;
        // A watcher per job, owned by the context: gone with it, so a job that ends later
        // (a superseded one included) delivers nothing to a destroyed owner.
        auto* watcher = new QFutureWatcher<Result>(m_context);
        QObject::connect(watcher, &QFutureWatcherBase::finished, m_context,
                         [this, id, watcher, apply = std::move(apply)] {
                             watcher->deleteLater();
                             if (id == m_jobId) apply(watcher->result());
                         });
        m_future = QtConcurrent::run(workPool(),
                                     [job = std::move(job), cancelled] { return job(*cancelled); });
        watcher->setFuture(m_future);
        return id;
    }
    // The running job should stop, and its result will not be applied.
    void cancel()
    {
        stop();
        ++m_jobId;
    }
    // The running job should stop early; what it returns is still applied (a cancelled
    // pipeline reports the steps it finished).
    void stop()
    {
        if (m_cancelled) m_cancelled->store(true);
    }
    bool isRunning() const { return m_future.isRunning(); }
    // Blocks until the newest job has returned (its result is applied later, if at all).
    void waitForFinished()
    {
        if (m_future.isValid()) m_future.waitForFinished();
    }

private:
    QObject* m_context;
    quint64 m_jobId = 0;
    std::shared_ptr<std::atomic<bool>> m_cancelled;
    QFuture<Result> m_future;
};

} // namespace ptowb
