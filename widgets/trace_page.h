#pragma once
// The page people live in: search bar, time ruler, GPU overview strip and
// the timeline, sharing one ViewState, plus the warning banner for traces
// that were read only in part.

#include <QWidget>
#include <memory>

#include "model/trace.h"
#include "timeline/view_state.h"

class QLabel;
class QLineEdit;
class QPushButton;
class QTimer;

namespace gapscope::ui {

class OverviewStrip;
class SearchBar;
class TimeRuler;
class TimelineView;
class WarningsList;

class TracePage : public QWidget {
    Q_OBJECT
  public:
    explicit TracePage(QWidget* parent = nullptr);
    ~TracePage() override;
    // `path` keys the remembered arrangement of the rows (none when empty).
    void setTrace(std::shared_ptr<const Trace> trace, const QString& path = {});
    std::shared_ptr<const Trace> trace() const { return trace_; }

    ViewState* state() const { return state_; }
    TimelineView* timeline() const { return timeline_; }
    SearchBar* search() const { return search_; }
    OverviewStrip* overview() const { return overview_; }
    TimeRuler* ruler() const { return ruler_; }
    WarningsList* warnings() const { return warnings_; }
    // A line above the page naming the run it shows in a comparison
    // (rich text: a swatch and the file); empty hides it.
    void setRunLabel(const QString& html);
    QLabel* runLabel() const { return runLabel_; }
    QLineEdit* trackFilter() const { return trackFilter_; }

  signals:
    void importReportRequested();

  private:
    void applyTrackFilter();
    void saveArrangementNow();

    std::shared_ptr<const Trace> trace_;
    QString path_;
    ViewState* state_;
    QLabel* runLabel_;
    QWidget* banner_;
    QLabel* bannerText_;
    WarningsList* warnings_;
    SearchBar* search_;
    QLineEdit* trackFilter_;
    QTimer* trackFilterTimer_;
    QTimer* arrangementTimer_;
    TimeRuler* ruler_;
    OverviewStrip* overview_;
    TimelineView* timeline_;
};

}  // namespace gapscope::ui
