#pragma once
// Rich text whose links lead somewhere in the viewer: "slice:N" selects a
// slice, "range:START:END" frames a time range, "step:N" sets the step
// scope, "panel:NAME" raises a panel, "expand:N" asks to open or close
// item N. Used by the Overview and Advice.

#include <QTextBrowser>
#include <string_view>

#include "panels/nav_target.h"

namespace gapscope::ui {

QString sliceLink(uint32_t slice, const QString& text);
// A link to a slice named by a symbol: its short name (a kernel without
// template arguments and parameters), the full name in the tooltip.
// `shown`: the form to show (distinctShortNames), else its short name.
QString symbolLink(uint32_t slice, std::string_view name, const std::string& shown = {});
QString rangeLink(Interval range, const QString& text);
QString panelLink(const QString& dockName, const QString& text);

class LinkView : public QTextBrowser {
    Q_OBJECT
  public:
    explicit LinkView(QWidget* parent = nullptr);
    // Shown below the standard Copy / Select All of the context menu.
    void setExtraActions(QList<QAction*> actions) { extra_ = std::move(actions); }

  signals:
    void navigate(const gapscope::ui::NavTarget& target);
    void panelRequested(const QString& dockName);
    // "expand:N": show or hide item N's details (the view's owner re-renders).
    void expandRequested(int item);

  protected:
    void contextMenuEvent(QContextMenuEvent* e) override;

  private:
    QList<QAction*> extra_;
};

}  // namespace gapscope::ui
