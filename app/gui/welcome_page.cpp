#include "welcome_page.h"

#include "project/new_project.h"
#include "project/project.h"
#include "recent_projects.h"

#include <QDir>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace ptowb {

namespace {

constexpr int kFolderRole = Qt::UserRole;

QListWidget* projectList(const QString& objectName)
{
    auto* list = new QListWidget;
    list->setObjectName(objectName);
    list->setAlternatingRowColors(true);
    list->setMinimumWidth(320);
    list->setWordWrap(true);
    list->setSpacing(2);
    return list;
}

// "scale_gelu — y = gelu(x)[:, :channels] * scale" from the project's op.json, else the folder
// name; the folder is the tooltip.
void addProject(QListWidget* list, const QString& folder)
{
    std::string error;
    const std::optional<Project> project = Project::open(folder.toStdString(), error);
    QString text = QFileInfo(folder).fileName();
    QString tip = QDir::toNativeSeparators(folder);
    if (project) {
        const SpecLoadResult loaded = project->validateSaved();
        if (!loaded.spec.name.empty()) text = QString::fromStdString(loaded.spec.name);
        if (!loaded.spec.doc.empty())
            text += QStringLiteral(" — ") + QString::fromStdString(loaded.spec.doc);
    } else {
        tip += QStringLiteral("\n") + QString::fromStdString(error);
    }
    auto* item = new QListWidgetItem(text, list);
    item->setData(kFolderRole, folder);
    item->setToolTip(tip);
}

} // namespace

WelcomePage::WelcomePage(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("welcomePage"));
    auto* title = new QLabel(tr(
        "<h1>PTO Workbench</h1><p>Describe a PyPTO kernel once — kernel, op.json, CPU reference — "
        "and the workbench checks it, verifies it against the simulator, generates the torch, ONNX "
        "and graph-compiler glue, and exports a deployable op package.</p>"));
    title->setWordWrap(true);
    title->setMaximumWidth(900);

    auto* newOp = new QPushButton(style()->standardIcon(QStyle::SP_FileIcon), tr("New Operator…"));
    newOp->setObjectName(QStringLiteral("welcomeNew"));
    auto* open =
        new QPushButton(style()->standardIcon(QStyle::SP_DirOpenIcon), tr("Open Project…"));
    connect(newOp, &QPushButton::clicked, this, &WelcomePage::newOperatorRequested);
    connect(open, &QPushButton::clicked, this, &WelcomePage::openDialogRequested);

    m_samples = projectList(QStringLiteral("welcomeSamples"));
    m_recent = projectList(QStringLiteral("welcomeRecent"));
    connect(m_samples, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        Q_EMIT sampleRequested(item->data(kFolderRole).toString());
    });
    connect(m_recent, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        Q_EMIT openRequested(item->data(kFolderRole).toString());
    });

    auto* lists = new QGridLayout;
    lists->addWidget(new QLabel(tr("<b>Samples</b> — opens your own copy; press F5 to verify it")),
                     0, 0);
    lists->addWidget(new QLabel(tr("<b>Recent projects</b>")), 0, 1);
    lists->addWidget(m_samples, 1, 0);
    lists->addWidget(m_recent, 1, 1);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(newOp);
    buttons->addWidget(open);
    buttons->addStretch(1);

    auto* tips = new QLabel(tr("Keys: <b>F5</b> Verify · <b>Ctrl+R</b> Redeploy · <b>Ctrl+G</b> "
                               "Generate · <b>Ctrl+E</b> Export · "
                               "<b>Esc</b> Cancel · <b>Ctrl+Shift+P</b> every command. Hover a "
                               "pypto function or an op.json key for help."));
    tips->setWordWrap(true);

    auto* column = new QVBoxLayout;
    column->addWidget(title);
    column->addLayout(buttons);
    column->addSpacing(12);
    column->addLayout(lists, 1);
    column->addWidget(tips);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(32, 24, 32, 24);
    layout->addLayout(column, 1);
}

// Reading every sample's and recent project's op.json is left until the page is seen, so a
// start with a project to open does not pay for it.
void WelcomePage::showEvent(QShowEvent* event)
{
    refresh();
    QWidget::showEvent(event);
}

void WelcomePage::refresh()
{
    m_samples->clear();
    for (const std::string& folder : sampleProjects())
        addProject(m_samples, QString::fromStdString(folder));
    m_recent->clear();
    for (const QString& folder : RecentProjects::list())
        addProject(m_recent, folder);
    if (m_recent->count() == 0)
        (new QListWidgetItem(tr("(none yet)"), m_recent))->setFlags(Qt::NoItemFlags);
}

} // namespace ptowb
