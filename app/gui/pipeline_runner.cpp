#include "pipeline_runner.h"

#include "work_pool.h"

#include <QtConcurrent>

namespace ptowb {

PipelineRunner::PipelineRunner(QObject* parent) : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<PipelineResult>::finished, this, [this] {
        m_result = m_watcher.result();
        emit finished(m_result);
    });
}

PipelineRunner::~PipelineRunner()
{
    m_cancel = true;
    m_watcher.waitForFinished();
}

bool PipelineRunner::start(const Project& project, PipelineOptions options)
{
    if (m_watcher.isRunning()) return false;
    m_cancel = false;
    options.cancel = &m_cancel;
    options.progress = [this](PipelineStep step, const std::string& message) {
        const QString name = QString::fromLatin1(stepName(step)),
                      text = QString::fromStdString(message);
        QMetaObject::invokeMethod(
            this, [this, name, text] { emit progress(name, text); }, Qt::QueuedConnection);
    };
    m_watcher.setFuture(QtConcurrent::run(
        workPool(), [project, options] { return runPipeline(project, options); }));
    return true;
}

} // namespace ptowb
