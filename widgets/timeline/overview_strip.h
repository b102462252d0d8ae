#pragma once
// GPU utilisation over the whole trace, one lane per device, with the
// visible window marked; clicking or dragging navigates there.

#include <QWidget>
#include <memory>
#include <vector>

#include "model/trace.h"
#include "timeline/view_state.h"

namespace gapscope::ui {

class OverviewStrip : public QWidget {
    Q_OBJECT
  public:
    OverviewStrip(ViewState* state, int gutterWidth, QWidget* parent = nullptr);
    void setTrace(std::shared_ptr<const Trace> trace);
    void setRightMargin(int px) {
        rightMargin_ = px;
        update();
    }
    QSize sizeHint() const override;

  protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;

  private:
    void navigate(double x);
    // Each GPU's busy share per pixel and over its active span, for the
    // whole trace: computed when the trace or the width changes, not per
    // paint (the strip repaints on every pan and zoom, and the busy union of
    // a large trace has millions of intervals).
    struct Lane {
        double busyPercent = 0;
        std::vector<double> bins;
    };
    const std::vector<Lane>& lanes(int width);
    std::vector<Lane> lanes_;
    int lanesWidth_ = -1;
    TimeWindow lanesBounds_{0, 0};

    ViewState* state_;
    int gutter_;
    int rightMargin_ = 0;
    std::shared_ptr<const Trace> trace_;
};

}  // namespace gapscope::ui
