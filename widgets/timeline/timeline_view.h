#pragma once
// The timeline widget: tracks of one Trace, navigated with the habits of
// chrome://tracing and Perfetto (W/S zoom at the cursor, A/D pan,
// Ctrl+wheel zoom, wheel scroll, drag to pan, Shift+drag to select a range,
// click to select a slice, double-click or F to fit, 0 to fit all).

#include <QWidget>
#include <memory>
#include <vector>

#include "analysis/idle_gaps.h"
#include "timeline/timeline_colors.h"
#include "timeline/timeline_layout.h"
#include "timeline/timeline_painter.h"
#include "timeline/view_state.h"

class QScrollBar;

namespace gapscope::ui {

class TimelineView : public QWidget {
    Q_OBJECT
  public:
    explicit TimelineView(ViewState* state, QWidget* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    const Trace* trace() const { return trace_.get(); }
    const TimelineLayout& layout() const { return layout_; }

    // GPU idle gaps shorter than this are not shaded.
    void setGapThreshold(TimeNs ns);
    TimeNs gapThreshold() const { return gapThreshold_; }
    const std::vector<std::vector<Interval>>& gaps() const { return gaps_; }
    // Colours of the gaps by their cause, per entry of trace.gpuDevices, each
    // (gap, colour) sorted by start; gaps not listed keep the default shading.
    using GapColorList = std::vector<std::vector<std::pair<Interval, QColor>>>;
    void setGapCauseColors(GapColorList colors);

    // Names (per StringId) to highlight; empty = no search.
    void setSearchNames(std::vector<uint8_t> mask);

    static constexpr int kGutterWidth = 260;
    int gutterWidth() const { return kGutterWidth; }
    TimeAxis axis() const;

    // The slice under a widget position, or kNone.
    uint32_t sliceAt(QPoint pos) const;
    // Scrolls vertically so that the slice's row is visible.
    void revealSlice(uint32_t slice);
    // Slices of all tracks that intersect the visible window.
    uint64_t slicesInView() const;
    PaintStats lastPaintStats() const { return lastStats_; }

  signals:
    void hoverTimeChanged(gapscope::TimeNs t, bool inside);

  protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void mouseDoubleClickEvent(QMouseEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    void leaveEvent(QEvent*) override;
    bool event(QEvent*) override;  // tooltips
    void changeEvent(QEvent*) override;

  private:
    void recomputeGaps();
    void updateScrollRange();
    TimeNs anchorTime() const;  // the cursor's time, or the centre
    void handleGutterClick(QPoint pos);
    void fitSelection();

    ViewState* state_;
    std::shared_ptr<const Trace> trace_;
    TimelineLayout layout_;
    QScrollBar* vbar_;
    TimeNs gapThreshold_ = kDefaultGapThresholdNs;
    std::vector<std::vector<Interval>> gaps_;
    GapColorList gapCauseColors_;
    std::vector<std::vector<QColor>> gapColors_;  // parallel to gaps_
    std::vector<uint8_t> searchNames_;
    TimelineColors colors_;
    NameColors names_;
    uint32_t hover_ = kNone;
    QPoint pressPos_;
    TimeWindow pressWindow_;
    int pressScroll_ = 0;
    bool dragging_ = false;
    bool selectingRange_ = false;
    TimeNs rangeAnchor_ = 0;
    PaintStats lastStats_;
};

}  // namespace gapscope::ui
