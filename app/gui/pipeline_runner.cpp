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
            try {
                return runPipeline(project, run);
            } catch (const std::exception& e) { // the window must not stay "running" forever
                PipelineResult failed;
                StepResult step;
                step.status = StepResult::Status::Failed;
                step.message = std::string("internal error: ") + e.what();
                failed.steps.push_back(step);
                return failed;
            }
        },
        [this](PipelineResult result) {
            m_running = false;
            m_result = std::move(result);
            emit finished(m_result);
        });
    return true;
}

} // namespace ptowb
