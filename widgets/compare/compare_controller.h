#pragma once
// Comparing two runs in the main window: the open trace is the baseline
// (the page above); the candidate loads on its own loader into a second
// page below, the two timelines linked to one zoom and lined up on a step,
// and the Compare panel shows core's comparison of the two. Opening another
// trace the ordinary way ends the comparison.

#include <QObject>
#include <QString>
#include <memory>
#include <optional>

#include "compare/compared_runs.h"
#include "compare/view_link.h"
#include "picture/picture.h"
#include "util/executor.h"

class QDockWidget;
class QMainWindow;
class QSplitter;

namespace gapscope::ui {

class ComparePanel;
class ImageExport;
class CoalescingRunner;
class TraceLoader;
class TracePage;

class CompareController : public QObject {
    Q_OBJECT
  public:
    // `basePage` is in `pages` (a vertical splitter); the candidate's page is
    // added below it.
    CompareController(QMainWindow* window, TracePage* basePage, QSplitter* pages,
                      ImageExport* baseImages);
    ~CompareController() override;

    // Loads `path` (a file, a profile run's folder or a folder of ranks) as
    // the candidate against the trace open above (`basePath`).
    void compareWith(const QString& path, const QString& basePath);
    // Back to one trace.
    void close();
    bool comparing() const { return candidate_ != nullptr; }
    bool computing() const;

    void setGapThreshold(TimeNs ns);
    // The ranks of the job open above, when it is one (else null).
    void setBaseRanks(std::shared_ptr<const RanksDocument> ranks) { baseRanks_ = std::move(ranks); }
    // Lines the timelines up on the index-th step of each (none: the median).
    void alignOn(std::optional<size_t> index);
    // One scale for both timelines (false), or each fitted to its lined-up
    // step (true): a run ten times faster fills its timeline as the other does.
    void setFitted(bool fitted);
    bool fitted() const { return fitted_; }
    const LinkMapping& linkMapping() const;
    // Frames the slice named `name` nearest the lined-up step in both runs
    // (found on a worker; framed() follows), the two lined up on their
    // starts, each whole however far apart the runs' steps put them (fitted:
    // each fills its timeline); `baseName`: BASE's name for it when it
    // differs (a renamed kernel).
    void frameName(const QString& name, const QString& baseName = {});
    // The comparison report with both timelines as they are in view (.html,
    // .md or .pdf); chooseReport asks where and writes it on a worker.
    bool exportReport(const QString& path, QString* error) const;
    void chooseReport();

    TraceLoader* loader() const { return loader_; }
    TracePage* candidatePage() const { return candidatePage_; }
    ComparePanel* panel() const { return panel_; }
    QDockWidget* dock() const { return dock_; }
    QString candidatePath() const { return candidatePath_; }
    // The candidate compared, or loading to be (empty: none).
    QString requestedPath() const { return expecting_ ? requestedPath_ : candidatePath_; }
    std::shared_ptr<const ComparedRuns> result() const { return result_; }
    const StepAlignment& alignment() const { return alignment_; }

  signals:
    void started(const QString& path);  // the candidate starts loading
    void opened(const QString& path);   // it loaded and shows below
    void compared();                    // the panel shows a comparison
    void framed();                      // a name was framed in both timelines
    void failed(const QString& message, const QString& path);
    void loadCancelled();  // the candidate's load, by the person
    void loadStopped();    // the candidate's load, by closing the comparison
    void swapRequested(const QString& base, const QString& now);
    void closed();
    void reportWritten(const QString& message);  // or why not

  private:
    void onCandidate(std::shared_ptr<const Trace> trace, const QString& path);
    void compute();
    void showDock();
    void showAlignment();
    // The line from BASE's times to NEW's: the lined-up steps' starts, at one
    // scale or each fitted to its step (without steps, to its run).
    LinkMapping stepMapping() const;
    void showFramed();
    // "0 = start of step N" (or the runs' starts) and how they are lined up.
    void setRulerNotes(const QString& how);
    std::optional<PictureSpec> pictureOf(const ImageExport* images, TimeNs origin,
                                         QString* error) const;

    QMainWindow* window_;
    TracePage* basePage_;
    QSplitter* pages_;
    TracePage* candidatePage_;
    TraceLoader* loader_;
    CoalescingRunner* runner_;
    CoalescingRunner* framer_;  // finds the slices of a name to frame
    ViewLink* link_;
    ImageExport* baseImages_;
    ImageExport* candidateImages_;
    TaskGroup exports_;  // the report's writer; destroying it waits for it
    ComparePanel* panel_;
    QDockWidget* dock_;
    std::shared_ptr<const Trace> candidate_;
    std::shared_ptr<const RanksDocument> baseRanks_, candidateRanks_, loadedRanks_;
    QString basePath_, candidatePath_;
    std::shared_ptr<const ComparedRuns> result_;
    StepAlignment alignment_;
    std::optional<size_t> alignIndex_;
    bool fitted_ = false;
    // The slices framed by name, each run's (kNone: not found there); the
    // timelines are lined up on them until another step is chosen.
    std::optional<std::pair<uint32_t, uint32_t>> framed_;
    bool expecting_ = false;  // a candidate is loading for this comparison
    QString requestedPath_;   // what it is
    TimeNs gapThreshold_ = kDefaultGapThresholdNs;
};

}  // namespace gapscope::ui
