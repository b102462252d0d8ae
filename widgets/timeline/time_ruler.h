#pragma once
// The time ruler above the tracks: adaptive ticks and units (ns, µs, ms, s)
// counted from an origin (the trace's start; a person may count from a
// step's start, the selection or any point: its context menu), and the
// selected range's duration.

#include <QWidget>
#include <vector>

#include "index/interval_set.h"
#include "report/annotations.h"
#include "timeline/view_state.h"

namespace gapscope::ui {

class TimeRuler : public QWidget {
    Q_OBJECT
  public:
    TimeRuler(ViewState* state, int gutterWidth, QWidget* parent = nullptr);
    // Where time counts from: the trace's start, or what the view sets (a
    // comparison's aligned step); a person's choice replaces it until the
    // next call.
    void setOrigin(TimeNs origin) {
        defaultOrigin_ = origin;
        setCountFrom(origin);
    }
    TimeNs origin() const { return origin_; }
    // A person's origin (the context menu's choices call it).
    void setCountFrom(TimeNs origin);
    // The steps the context menu offers to count from (number, span).
    void setSteps(std::vector<std::pair<int64_t, Interval>> steps) { steps_ = std::move(steps); }
    // The context menu's choices at time `t`: (text, origin), the trace's
    // start first; disabled ones are absent.
    std::vector<std::pair<QString, TimeNs>> originChoices(TimeNs t) const;
    // A note at the ruler's right end ("aligned on step 10").
    void setNote(QString note) {
        note_ = std::move(note);
        update();
    }
    QString note() const { return note_; }
    void setRightMargin(int px) {
        rightMargin_ = px;
        update();
    }
    QSize sizeHint() const override { return {600, height()}; }
    // Markers as flags, notes as bars, with their first line; with any, the
    // ruler grows a lane for them above the ticks.
    void setAnnotations(std::vector<Annotation> annotations, uint64_t current);

  signals:
    void originChanged(gapscope::TimeNs origin);

  protected:
    void paintEvent(QPaintEvent*) override;
    void changeEvent(QEvent*) override;
    void contextMenuEvent(QContextMenuEvent*) override;

  private:
    void fitHeight();

    ViewState* state_;
    int gutter_;
    int rightMargin_ = 0;
    TimeNs origin_ = 0;
    TimeNs defaultOrigin_ = 0;
    std::vector<std::pair<int64_t, Interval>> steps_;  // by start
    QString note_;
    std::vector<Annotation> annotations_;
    uint64_t currentAnnotation_ = 0;
};

}  // namespace gapscope::ui
