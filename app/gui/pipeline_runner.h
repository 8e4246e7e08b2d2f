#pragma once

#include "pipeline/pipeline.h"

#include <QFutureWatcher>
#include <QObject>
#include <atomic>

namespace ptowb {

// Runs the pipeline off the GUI thread; progress and the result come back queued.
class PipelineRunner : public QObject
{
    Q_OBJECT

public:
    explicit PipelineRunner(QObject* parent = nullptr);
    ~PipelineRunner() override;

    bool isRunning() const { return m_watcher.isRunning(); }
    // Starts a run unless one is running; returns whether it started.
    bool start(const Project& project, PipelineOptions options);
    void cancel() { m_cancel = true; }
    const PipelineResult& lastResult() const { return m_result; }

Q_SIGNALS:
    void progress(const QString& step, const QString& message);
    void finished(const ptowb::PipelineResult& result);

private:
    QFutureWatcher<PipelineResult> m_watcher;
    std::atomic<bool> m_cancel{false};
    PipelineResult m_result;
};

} // namespace ptowb
