#pragma once
// The Compare panel: two runs' comparison in one screen. The verdict on
// top (the step time's change, whether it is beyond noise, what moved),
// both runs' step times on one axis, and the tables core defines for the
// comparison (report/diff_tables.h): figures, GPU time per GPU, kernels,
// ops, advice and steps, each with BASE, NEW, Δ and Δ %, exportable as
// every table is. A kernel or op picked in its table is framed in both
// timelines; the step the timelines line up on is chosen here.

#include <QWidget>
#include <memory>
#include <optional>

#include "compare/compared_runs.h"

class QComboBox;
class QLabel;
class QPushButton;
class QScrollArea;
class QSplitter;
class QTabWidget;

namespace gapscope::ui {

class AnalysisTable;
class StepStrip;

class ComparePanel : public QWidget {
    Q_OBJECT
  public:
    explicit ComparePanel(QWidget* parent = nullptr);

    // The runs' names as the timelines label them (their files).
    void setNames(const QString& base, const QString& now);
    void setComputing(bool computing);
    // `alignIndex`: the step the timelines are lined up on (none: the median).
    void setRuns(std::shared_ptr<const ComparedRuns> runs, const StepAlignment& alignment,
                 std::optional<size_t> alignIndex);
    void clear();
    std::shared_ptr<const ComparedRuns> runs() const { return runs_; }

    QLabel* verdict() const { return verdict_; }
    StepStrip* strip() const { return strip_; }
    QTabWidget* tabs() const { return tabs_; }
    AnalysisTable* table(const QString& id) const;  // "figures", "gpus", "kernels", ...
    QComboBox* alignChoice() const { return align_; }
    QComboBox* scaleChoice() const { return scale_; }
    // Shows the scale the timelines have (not a person's pick: no signal).
    void setFitted(bool fitted);
    // Narrow (a laptop's width), the verdict and the step strip are the
    // first tab, so the tables have the whole width; wide, they are beside them.
    bool verdictBesideTables() const;

  signals:
    // `baseName`: the kernel's name in BASE when it was renamed, else "".
    void kernelChosen(const QString& name, const QString& baseName);
    void opChosen(const QString& name);
    // A scope's row: the name of its innermost range.
    void scopeChosen(const QString& name);
    // None: each run's median step; else the index-th step of each.
    void alignmentChosen(std::optional<size_t> index);
    // One scale for both timelines (false) or each fitted to its step (true).
    void fittedChosen(bool fitted);
    void swapRequested();
    void reportRequested();
    void closeRequested();

  protected:
    void resizeEvent(QResizeEvent* event) override;

  private:
    void placeVerdict(bool beside);
    void fillAlignChoice(const StepAlignment& alignment, std::optional<size_t> index);
    AnalysisTable* addTable(const QString& id, const QString& title);

    std::shared_ptr<const ComparedRuns> runs_;
    QString baseName_, newName_;
    QLabel* names_;
    QLabel* verdict_;
    QComboBox* align_;
    QComboBox* scale_;
    QPushButton* swap_;
    QPushButton* report_;
    QPushButton* close_;
    StepStrip* strip_;
    QTabWidget* tabs_;
    QSplitter* split_;
    QScrollArea* verdictArea_;  // the names, the verdict and the strip
    std::vector<std::pair<QString, AnalysisTable*>> tables_;
    bool filling_ = false;  // the choice is being refilled: not the person's pick
};

}  // namespace gapscope::ui
