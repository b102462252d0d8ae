#pragma once
// A chart drawn on the timeline's time axis: its plot spans the same
// screen columns as the timeline's track area, so times line up with the
// tracks above (the Memory and GPU Utilisation charts).

#include <QWidget>
#include <functional>
#include <utility>

namespace gapscope::ui {

class TimeAxisChart : public QWidget {
    Q_OBJECT
  public:
    using QWidget::QWidget;
    // Where the timeline's track area is, in global x (left, width); unset:
    // the chart's own width less a gutter as wide as the timeline's.
    void setTrackArea(std::function<std::pair<int, int>()> area) { area_ = std::move(area); }
    // The plot's left edge and width in the chart's coordinates.
    std::pair<int, int> plotSpan() const;

  private:
    std::function<std::pair<int, int>()> area_;
};

}  // namespace gapscope::ui
