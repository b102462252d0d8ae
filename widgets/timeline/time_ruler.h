#pragma once
// The time ruler above the tracks: adaptive ticks and units (ns, µs, ms, s)
// relative to the trace start, and the selected range's duration.

#include <QWidget>
#include <vector>

#include "report/annotations.h"
#include "timeline/view_state.h"

namespace gapscope::ui {

class TimeRuler : public QWidget {
    Q_OBJECT
  public:
    TimeRuler(ViewState* state, int gutterWidth, QWidget* parent = nullptr);
    void setOrigin(TimeNs origin) {
        origin_ = origin;
        update();
    }
    TimeNs origin() const { return origin_; }
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

  protected:
    void paintEvent(QPaintEvent*) override;
    void changeEvent(QEvent*) override;

  private:
    void fitHeight();

    ViewState* state_;
    int gutter_;
    int rightMargin_ = 0;
    TimeNs origin_ = 0;
    QString note_;
    std::vector<Annotation> annotations_;
    uint64_t currentAnnotation_ = 0;
};

}  // namespace gapscope::ui
