#include "python_settings_page.h"

#include "interpreter/interpreter.h"
#include "worker_client/worker_client.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTimer>
#include <QVBoxLayout>

namespace ptowb {

namespace {

const QString kKey = QStringLiteral("python/interpreter");

} // namespace

PythonSettingsPage::PythonSettingsPage(QWidget* parent) : QWidget(parent)
{
    auto* intro = new QLabel(
        tr("The Python interpreter that runs <code>kernel.py</code>, the reference and the "
           "simulator: a venv's, a conda env's or pyenv's <code>python</code> with the torch "
           "(and torch_npu or pypto) your kernels import. Any CPython 3.9 or newer with torch 1.13 "
           "or newer; the first run with a new interpreter or torch builds the kernel worker for "
           "it once (a minute or two). Empty: <code>PTOWB_PYTHON</code>, else %1. "
           "<code>ptowb-cli</code> takes <code>--python PATH</code>.")
            .arg(QString::fromStdString(interpreter::defaultPython()).toHtmlEscaped()));
    intro->setWordWrap(true);
    m_path = new QLineEdit(chosenInterpreter());
    m_path->setObjectName(QStringLiteral("pythonInterpreter"));
    m_path->setPlaceholderText(QString::fromStdString(interpreter::choosePython("")));
    auto* browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file =
            QFileDialog::getOpenFileName(this, tr("Python interpreter"), m_path->text());
        if (!file.isEmpty()) m_path->setText(file);
    });
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("pythonStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* row = new QHBoxLayout;
    row->addWidget(m_path, 1);
    row->addWidget(browse);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(row);
    layout->addWidget(m_status);
    layout->addStretch(1);
    // Checked when typing pauses: a probe starts the interpreter and imports torch.
    auto* pause = new QTimer(this);
    pause->setSingleShot(true);
    pause->setInterval(400);
    connect(pause, &QTimer::timeout, this, &PythonSettingsPage::check);
    connect(m_path, &QLineEdit::textChanged, pause, qOverload<>(&QTimer::start));
    check();
}

QString PythonSettingsPage::chosenInterpreter()
{
    return QSettings().value(kKey).toString();
}

void PythonSettingsPage::applyChosenInterpreter()
{
    worker::WorkerClient::choosePython(chosenInterpreter().trimmed().toStdString());
}

void PythonSettingsPage::save()
{
    if (m_path->text().trimmed() == chosenInterpreter()) return;
    QSettings().setValue(kKey, m_path->text().trimmed());
    applyChosenInterpreter();
}

void PythonSettingsPage::check()
{
    m_status->setText(tr("Checking %1…")
                          .arg(QString::fromStdString(
                              interpreter::choosePython(m_path->text().trimmed().toStdString()))));
    const std::string chosen = m_path->text().trimmed().toStdString();
    m_checks.start(
        [chosen](const std::atomic<bool>&) {
            auto found = interpreter::kernelInterpreter(chosen);
            if (auto* e = std::get_if<std::string>(&found))
                return QStringLiteral("<span style='color:#b00020'>%1</span>")
                    .arg(QString::fromStdString(*e).toHtmlEscaped());
            const interpreter::Interpreter& i = std::get<interpreter::Interpreter>(found);
            const QString pypto = i.pypto.empty()
                                      ? tr("pypto: not installed")
                                      : tr("pypto %1 installed: validate warns at calls it lacks")
                                            .arg(QString::fromStdString(i.pypto));
            const QString npu = i.torchNpu.empty()
                                    ? tr("torch_npu: not installed, a CPU stand-in takes its place")
                                    : tr("torch_npu %1").arg(QString::fromStdString(i.torchNpu));
            return tr("Python %1 · torch %2<br>%3<br>%4<br>Kernels run with the workbench's "
                      "pypto, in its simulator.")
                .arg(QString::fromStdString(i.python).toHtmlEscaped(),
                     QString::fromStdString(i.torch).toHtmlEscaped(), pypto.toHtmlEscaped(),
                     npu.toHtmlEscaped());
        },
        [this](const QString& text) { m_status->setText(text); });
}

} // namespace ptowb
