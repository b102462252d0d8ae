#pragma once
// Warnings about what was opened (files of a job that failed, ranks two
// files claimed) as a bar above the timeline: a count and a summary line,
// the list itself a click away, collapsed by default and scrolled when
// long. Never a modal box: 63 lines ran off the screen with its button.

#include <QWidget>

class QLabel;
class QListWidget;
class QToolButton;

namespace gapscope::ui {

class WarningsList : public QWidget {
    Q_OBJECT
  public:
    explicit WarningsList(QWidget* parent = nullptr);
    // Shows the bar with these warnings (hidden when there are none).
    void setWarnings(const QString& about, const QStringList& warnings);
    void clear() { setWarnings({}, {}); }

    QStringList warnings() const { return warnings_; }
    bool expanded() const;
    void setExpanded(bool expanded);
    QString summaryText() const;

  private:
    QStringList warnings_;
    QLabel* summary_;
    QToolButton* toggle_;
    QToolButton* close_;
    QListWidget* list_;
};

}  // namespace gapscope::ui
