#include "work_pool.h"

#include <QSemaphore>
#include <QThread>
#include <QThreadPool>
#include <algorithm>
#include <memory>

namespace ptowb {

namespace {

void startAllThreads(QThreadPool* pool)
{
    pool->setExpiryTimeout(-1);
    // Each task holds its thread until all have started, so the pool has to start them all.
    const int count = pool->maxThreadCount();
    auto started = std::make_shared<QSemaphore>(), release = std::make_shared<QSemaphore>();
    for (int k = 0; k < count; ++k)
        pool->start([started, release] {
            started->release();
            release->acquire();
        });
    started->acquire(count);
    release->release(count);
}

} // namespace

QThreadPool* workPool()
{
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool; // lives as long as the process; its jobs are waited for by their
                                   // owners
        p->setMaxThreadCount(std::max(4, QThread::idealThreadCount()));
        return p;
    }();
    return pool;
}

void startThreadsAhead()
{
    static const bool started = [] {
        startAllThreads(workPool());
        startAllThreads(QThreadPool::globalInstance());
        return true;
    }();
    Q_UNUSED(started);
}

} // namespace ptowb
