#pragma once
// Hosts the analysis panels in a main window: creates them (from the
// registry) in docks, owns the AnalysisSession they share, offers the one
// scope picker (whole trace / selection / visible window / step, and [ / ]
// for the previous / next step), and carries out their navigation on the
// timeline (select and frame a slice, a range or a step; highlight every
// slice of a name and step through them).

#include <QObject>
#include <memory>
#include <vector>

#include "model/trace.h"
#include "panels/analysis_session.h"

class QAction;
class QComboBox;
class QDockWidget;
class QMainWindow;
class QMenu;
class QToolBar;

namespace gapscope::ui {

class AnalysisPanel;
class TracePage;

class PanelHost : public QObject {
    Q_OBJECT
  public:
    PanelHost(QMainWindow* window, TracePage* page);

    // Docks for every panel (tabbed together at the bottom), their toggles in
    // `viewMenu`, the scope picker in `toolbar`.
    void install(QMenu* viewMenu, QToolBar* toolbar);
    void setTrace(std::shared_ptr<const Trace> trace, std::string indexCache = {});
    AnalysisSession* session() const { return session_; }
    const std::vector<AnalysisPanel*>& panels() const { return panels_; }
    AnalysisPanel* panel(const QString& dockName) const;
    QComboBox* scopePicker() const { return scope_; }
    void raisePanel(const QString& dockName);
    // The default arrangement of the docks for the window's size.
    void resetLayout();
    // A dock shown on demand (the Ranks, Compare, Search Results) that is
    // a tab beside the panels, then and after every resetLayout().
    void tabWithPanels(QDockWidget* dock);
    // The default height of the panels for the window's size (resetLayout
    // does it too; the window calls it once it is shown at its real size).
    void fitDockHeight();

  private:
    void navigate(const NavTarget& target);
    void colourGaps();  // the timeline's gap shading by cause (on a worker)
    void applyScopeChoice(int index);
    void showScope();

    QMainWindow* window_;
    TracePage* page_;
    AnalysisSession* session_;
    std::vector<AnalysisPanel*> panels_;
    std::vector<QDockWidget*> docks_;
    std::vector<QDockWidget*> tabbedOnDemand_;
    QComboBox* scope_ = nullptr;
    bool navigating_ = false;  // a panel framed a range: not a new selection scope
    StringId lastName_ = 0;
    bool hasLastName_ = false;
    class CoalescingRunner* gapColours_;
};

}  // namespace gapscope::ui
