#pragma once

#include <QFuture>
#include <QObject>
#include <QPointer>
#include <QtConcurrent>
#include <functional>

namespace ptowb {

// The threads that run the workbench's long jobs (pipeline, validation, loading results).
// Not Qt's global pool: Qt paints with that one, and a painter waiting behind a minute-long
// verify would freeze the window.
QThreadPool* workPool();

// Starts every thread of the work pool and of Qt's global pool now and keeps them. A thread
// started later, while a job loads libtorch, would wait for the dynamic loader's lock (held
// for the whole load, most of a second) — and the GUI thread starts threads for painting.
void startThreadsAhead();

// Runs a job on the work pool and applies its result on the GUI thread — only the newest
// job's: a result that a later request made stale is dropped, and nothing is applied once
// `context` is gone.
template <class Result> class LatestJob
{
public:
    explicit LatestJob(QObject* context) : m_context(context) {}

    void run(std::function<Result()> job, std::function<void(Result)> apply)
    {
        const quint64 generation = ++m_generation;
        QtConcurrent::run(workPool(), std::move(job))
            .then(m_context, [this, generation, apply = std::move(apply)](Result result) {
                if (generation == m_generation) apply(std::move(result));
            });
    }

    // Drops the result of every job started so far.
    void cancel() { ++m_generation; }

private:
    QObject* m_context;
    quint64 m_generation = 0;
};

} // namespace ptowb
