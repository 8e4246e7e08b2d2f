#pragma once

#include <QDialog>

class QAction;
class QLineEdit;
class QListWidget;

namespace ptowb {

// Ctrl+Shift+P: every action of a window by name, filtered as you type; Enter runs one.
class CommandPalette : public QDialog
{
    Q_OBJECT

public:
    explicit CommandPalette(QWidget* window);

    // Refreshes the list from the window's actions and shows the palette.
    void open();
    void setFilter(const QString& text);
    QStringList visibleCommands() const;
    // Runs the first visible command; returns false when none matches.
    bool runFirst();

private:
    void rebuild();
    QWidget* m_window;
    QLineEdit* m_filter;
    QListWidget* m_list;
    QList<QAction*> m_actions;
};

} // namespace ptowb
