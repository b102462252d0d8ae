#pragma once
// Memory curves on the timeline's time axis: the same visible window (zoom
// and pan follow the timeline; the chart's left margin is the timeline's
// gutter, so times line up), allocated as a filled step curve and reserved
// as a line, the peak marked with its time and value, a cursor line that
// follows the timeline's, and the value under the mouse. A click selects
// that time on the timeline. Under the allocated curve, a stacked band of
// what the largest groups by op hold over time (analysis/memory_held.h),
// sampled once per pixel column; and a mark at the moment whose alive
// allocations the panel lists.

#include <memory>
#include <optional>

#include "analysis/memory_held.h"
#include "model/trace.h"
#include "panels/time_axis_chart.h"
#include "timeline/view_state.h"

namespace gapscope::ui {

class MemoryChart : public TimeAxisChart {
    Q_OBJECT
  public:
    MemoryChart(ViewState* state, QWidget* parent = nullptr);
    void setTrace(std::shared_ptr<const Trace> trace);
    // Counter series to draw (kNone: none), and the peak to mark.
    void setCurves(uint32_t allocated, uint32_t reserved, std::optional<TimeNs> peakTime,
                   double peakValue);
    void setCursor(std::optional<TimeNs> t);
    // The band (null: none) and the moment listed (none: the peak's).
    void setBand(std::shared_ptr<const HeldBand> band);
    void setMoment(std::optional<TimeNs> t);
    // A band layer's colour, as the panel's legend shows it.
    static QColor layerColor(size_t layer, size_t layers);
    QSize sizeHint() const override { return {600, 160}; }

  signals:
    void timeClicked(gapscope::TimeNs t);

  protected:
    void paintEvent(QPaintEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void leaveEvent(QEvent*) override;

  private:
    double valueAt(uint32_t series, TimeNs t) const;

    ViewState* state_;
    std::shared_ptr<const Trace> trace_;
    uint32_t allocated_ = kNone, reserved_ = kNone;
    std::optional<TimeNs> peakTime_;
    double peakValue_ = 0;
    std::optional<TimeNs> cursor_, moment_;
    std::shared_ptr<const HeldBand> band_;
    std::optional<QPoint> mouse_;
};

}  // namespace gapscope::ui
