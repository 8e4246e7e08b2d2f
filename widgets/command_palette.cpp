#include "command_palette.h"

#include <QAction>
#include <QKeyEvent>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QVBoxLayout>

namespace ptowb {

namespace {

QString label(const QAction* action)
{
    QString text = action->text();
    text.remove(QLatin1Char('&'));
    text.remove(QStringLiteral("…"));
    return text;
}

} // namespace

CommandPalette::CommandPalette(QWidget* window) : QDialog(window, Qt::Popup), m_window(window)
{
    m_filter = new QLineEdit;
    m_filter->setPlaceholderText(tr("Type a command"));
    m_list = new QListWidget;
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_filter);
    layout->addWidget(m_list);
    resize(480, 320);
    connect(m_filter, &QLineEdit::textChanged, this, &CommandPalette::setFilter);
    connect(m_filter, &QLineEdit::returnPressed, this, [this] {
        if (runFirst()) accept();
    });
    connect(m_list, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        const int index = item->data(Qt::UserRole).toInt();
        accept();
        if (index >= 0 && index < m_actions.size()) m_actions[index]->trigger();
    });
}

void CommandPalette::rebuild()
{
    m_actions.clear();
    for (QAction* a : m_window->findChildren<QAction*>())
        if (!a->text().isEmpty() && !a->isSeparator() && !a->menu() && !m_actions.contains(a))
            m_actions << a;
    std::sort(m_actions.begin(), m_actions.end(),
              [](QAction* a, QAction* b) { return label(a) < label(b); });
    setFilter(m_filter->text());
}

void CommandPalette::open()
{
    m_filter->clear();
    rebuild();
    if (m_window) move(m_window->geometry().center() - QPoint(width() / 2, height()));
    show();
    m_filter->setFocus();
}

void CommandPalette::setFilter(const QString& text)
{
    if (m_actions.isEmpty()) rebuild();
    m_list->clear();
    for (int k = 0; k < m_actions.size(); ++k) {
        QAction* a = m_actions[k];
        if (!a->isEnabled() || !label(a).contains(text, Qt::CaseInsensitive)) continue;
        const QString shortcut = a->shortcut().toString(QKeySequence::NativeText);
        auto* item = new QListWidgetItem(
            a->icon(),
            shortcut.isEmpty() ? label(a) : label(a) + QStringLiteral("    ") + shortcut);
        item->setData(Qt::UserRole, k);
        m_list->addItem(item);
    }
    if (m_list->count()) m_list->setCurrentRow(0);
}

QStringList CommandPalette::visibleCommands() const
{
    QStringList out;
    for (int k = 0; k < m_list->count(); ++k)
        out << label(m_actions[m_list->item(k)->data(Qt::UserRole).toInt()]);
    return out;
}

bool CommandPalette::runFirst()
{
    QListWidgetItem* item = m_list->currentItem() ? m_list->currentItem() : m_list->item(0);
    if (!item) return false;
    const int index = item->data(Qt::UserRole).toInt();
    hide();
    m_actions[index]->trigger();
    return true;
}

} // namespace ptowb
