#pragma once
// Critical path (gapscope-cli critical-path): its figures and tables as
// every registered analysis shows them, the path drawn over the timeline
// (its slices outlined, its hops drawn, the rest dimmed on request), and a
// small what-if form: scale a part, see the step found again on the graph.

#include <QStringList>

#include "panels/registry_panel.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace gapscope::ui {

class PathOverlay;
class ViewState;

class CriticalPathPanel : public RegistryPanel {
    Q_OBJECT
  public:
    CriticalPathPanel(AnalysisSession* session, ViewState* view, QWidget* parent = nullptr);
    QString dockName() const override { return QStringLiteral("critical-pathDock"); }

    // The what-ifs in effect, in the CLI's words ("kernel:*gemm*=0.5").
    QStringList whatIfs() const { return whatIfs_; }
    // Adds one (as the form does); false, with why in the form, when the
    // CLI would refuse it.
    bool addWhatIf(const QString& text);
    void clearWhatIfs();
    void setShownOnTimeline(bool shown);
    void setDimRest(bool dim);
    // What it hands the timeline (null: nothing).
    std::shared_ptr<const PathOverlay> overlay() const { return overlay_; }

    AnalysisOptions options() const override;

  protected:
    Derive derive() const override;
    void presentedDerived(const Derived& derived) override;
    void clearContents() override;
    void inViewChanged() override;

  private:
    void addFromForm();
    void whatIfsChanged();
    void showOverlay();

    ViewState* view_;
    QCheckBox* onTimeline_;
    QCheckBox* dimRest_;
    QComboBox* part_;
    QLineEdit* pattern_;
    QDoubleSpinBox* factor_;
    QPushButton* add_;
    QLabel* inEffect_;
    QPushButton* clear_;
    QStringList whatIfs_;
    std::shared_ptr<const PathOverlay> overlay_;  // the last result's
};

}  // namespace gapscope::ui
