#pragma once

#include "pipeline/pipeline.h"
#include "work_pool.h"

#include <QObject>

namespace ptowb {

// Runs the pipeline off the GUI thread; progress and the result come back queued.
class PipelineRunner : public QObject
{
    Q_OBJECT

public:
    explicit PipelineRunner(QObject* parent = nullptr);
    ~PipelineRunner() override;

    bool isRunning() const { return m_running; }
    // Starts a run unless one is running; returns whether it started.
    bool start(const Project& project, PipelineOptions options);
    void cancel(); // the run stops at its next check and reports "cancelled"
    const PipelineResult& lastResult() const { return m_result; }

Q_SIGNALS:
    void progress(const QString& step, const QString& message);
    // A step ended: its summary line ("verify: done (1.25 s) every case passes").
    void stepFinished(const QString& summary);
    void finished(const ptowb::PipelineResult& result);

private:
    PipelineResult m_result;
    bool m_running = false;
    JobTracker<PipelineResult> m_job{this};
};

} // namespace ptowb
