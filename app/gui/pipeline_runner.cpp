#include "pipeline_runner.h"

namespace ptowb {

PipelineRunner::PipelineRunner(QObject* parent) : QObject(parent) {}

PipelineRunner::~PipelineRunner()
{
    m_job.cancel();
    m_job.waitForFinished();
}

void PipelineRunner::cancel()
{
    m_job.stop();
}

bool PipelineRunner::start(const Project& project, PipelineOptions options)
{
    if (m_running) return false;
    m_running = true;
    options.progress = [this](PipelineStep step, const std::string& message) {
        const QString name = QString::fromLatin1(stepName(step)),
                      text = QString::fromStdString(message);
        QMetaObject::invokeMethod(
            this, [this, name, text] { emit progress(name, text); }, Qt::QueuedConnection);
    };
    options.stepFinished = [this](const StepResult& step) {
        const QString summary = QString::fromStdString(stepSummary(step));
        QMetaObject::invokeMethod(
            this, [this, summary] { emit stepFinished(summary); }, Qt::QueuedConnection);
    };
    m_job.start(
        [project, options](const std::atomic<bool>& cancelled) {
            PipelineOptions run = options;
            run.cancel = &cancelled;
            return runPipeline(project, run);
        },
        [this](PipelineResult result) {
            m_running = false;
            m_result = std::move(result);
            emit finished(m_result);
        });
    return true;
}

} // namespace ptowb
