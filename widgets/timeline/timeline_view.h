#pragma once
// The timeline widget: tracks of one Trace, navigated with the habits of
// chrome://tracing and Perfetto (W/S zoom at the cursor, A/D pan,
// Ctrl+wheel zoom, wheel scroll, drag to pan, Shift+drag to select a range,
// click to select a slice, double-click or F to fit, 0 to fit all).

#include <QFont>
#include <QImage>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "analysis/idle_gaps.h"
#include "picture/gap_colours.h"
#include "report/annotations.h"
#include "timeline/timeline_colors.h"
#include "timeline/timeline_layout.h"
#include "timeline/timeline_painter.h"
#include "timeline/view_state.h"

class QMenu;
class QScrollBar;

namespace gapscope::ui {

class CoalescingRunner;

class TimelineView : public QWidget {
    Q_OBJECT
  public:
    explicit TimelineView(ViewState* state, QWidget* parent = nullptr);
    ~TimelineView() override;

    void setTrace(std::shared_ptr<const Trace> trace);
    const Trace* trace() const { return trace_.get(); }
    const TimelineLayout& layout() const { return layout_; }
    // Ranks merged into one trace: every rank's GPUs first, or each rank's
    // GPUs in its group (timeline_layout.h).
    void setGpusOnTop(bool on);

    // How the rows are arranged (pinned, hidden, order, collapsed); a
    // person changes it in the gutter: drag a header or label to move it,
    // right-click for the rest (fillGutterMenu).
    const TrackArrangement& arrangement() const { return layout_.arrangement(); }
    void setArrangement(TrackArrangement arrangement);
    // Shows only the tracks and counters whose "process › track" matches
    // (case-insensitive regex; a pattern that is not one matches as text);
    // empty shows all. Returns the number of tracks and counters shown.
    int setTrackFilter(const QString& pattern);
    QString trackFilter() const { return trackFilter_; }
    void setAllCollapsed(bool collapsed);
    // The gutter's context menu for the row at widget y (public for tests).
    void fillGutterMenu(QMenu& menu, int y);

    // GPU idle gaps shorter than this are not shaded.
    void setGapThreshold(TimeNs ns);
    TimeNs gapThreshold() const { return gapThreshold_; }
    const std::vector<std::vector<Interval>>& gaps() const { return gaps_; }
    // Colours of the gaps by their cause, per entry of trace.gpuDevices, each
    // (gap, colour) sorted by start; gaps not listed keep the default shading.
    using GapColorList = ui::GapColorList;
    void setGapCauseColors(GapColorList colors);
    const GapColorList& gapCauseColors() const { return gapCauseColors_; }

    // Drawn over the tracks (a marker's line, a range's band, a slice
    // note's outline and callout); `current` is drawn bolder.
    void setAnnotations(std::vector<Annotation> annotations, uint64_t current);
    const std::vector<Annotation>& annotations() const { return annotations_; }

    // Names (per StringId) to highlight; empty = no search.
    void setSearchNames(std::vector<uint8_t> mask);

    static constexpr int kGutterWidth = 260;
    int gutterWidth() const { return kGutterWidth; }
    TimeAxis axis() const;
    TimeNs anchorTime() const;  // the cursor's time, or the centre

    // The slice under a widget position, or kNone.
    uint32_t sliceAt(QPoint pos) const;
    // Scrolls vertically so that the slice's row is visible.
    void revealSlice(uint32_t slice);
    // M: marks the selected slice's span (the selected range), or unmarks.
    bool markSelectedSlice();
    // An arrow key: selects the neighbouring slice (analysis/slice_queries.h).
    bool walkFromSelectedSlice(int key);
    // Slices of all tracks that intersect the visible window.
    uint64_t slicesInView() const;
    PaintStats lastPaintStats() const { return lastStats_; }
    // Frames drawn (not copied from the last one) since construction, and
    // of those the ones drawn off the GUI thread (for the screen; a grab()
    // draws at once).
    uint64_t framesDrawn() const { return framesDrawn_; }
    uint64_t framesDrawnOffThread() const { return framesDrawnOffThread_; }
    // Whether the frame on screen shows the view as it is now.
    bool frameIsCurrent() const;

  signals:
    // A right click: where (global), the time there and the slice under it.
    void contextMenuRequested(QPoint globalPos, gapscope::TimeNs time, uint32_t slice);
    void hoverTimeChanged(gapscope::TimeNs t, bool inside);
    // A person pinned, hid, moved, collapsed or expanded rows.
    void arrangementChanged();
    // "Filter tracks…" in the gutter's menu.
    void trackFilterRequested();

  protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void mouseDoubleClickEvent(QMouseEvent*) override;
    void contextMenuEvent(QContextMenuEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    void leaveEvent(QEvent*) override;
    bool event(QEvent*) override;  // tooltips
    void changeEvent(QEvent*) override;

  private:
    void recomputeGaps();
    void updateScrollRange();

    void handleGutterClick(QPoint pos);
    // After the layout's arrangement changed.
    void arrangementEdited();
    // The full label of a gutter row, for its tooltip and menu.
    QString rowLabel(const DisplayRow& row) const;
    void fitSelection();
    // Something drawn changed that the frame key does not hold.
    void contentChanged();
    // Repaints the frame's part of the widget.
    void updateFrame();

    // What one frame shows: while it is unchanged, a repaint is a copy of the
    // last frame. Qt repaints the whole window when a dock's tab or contents
    // change, and drawing a whole-trace frame again costs milliseconds.
    struct FrameKey {
        TimeWindow window;
        int scrollY = 0;
        QSize size;       // of the widget
        QSize paintSize;  // of the part paintTimeline draws (not the scroll bar)
        qreal dpr = 1;
        uint32_t selectedSlice = kNone;
        std::vector<uint32_t> alsoSelected;  // Ctrl+clicked
        uint32_t hoverSlice = kNone;
        std::optional<TimeWindow> range;
        uint64_t content = 0;
        bool operator==(const FrameKey&) const = default;
    };
    // What frames draw besides the key, owned, so that a worker can draw
    // while the view changes: copied again only when it changes.
    struct FrameContent;
    static PaintInputs inputsFor(const FrameKey& key, const FrameContent& content,
                                 NameColors* names);
    FrameKey currentKey() const;
    std::shared_ptr<const FrameContent> frameContent();
    // Draws on the GUI thread (for a grab()), or asks the worker.
    void drawFrameNow(const FrameKey& key);
    void requestFrame(const FrameKey& key);
    void showFrame(const FrameKey& key, QImage image, PaintStats stats);
    // The last frame, shifted when only the start of the window or the
    // scroll position changed since (the newer frame is on its way).
    void paintStaleFrame(QPainter& p, const FrameKey& key) const;

    ViewState* state_;
    std::shared_ptr<const Trace> trace_;
    TimelineLayout layout_;
    QScrollBar* vbar_;
    TimeNs gapThreshold_ = kDefaultGapThresholdNs;
    std::vector<std::vector<Interval>> gaps_;
    GapColorList gapCauseColors_;
    std::vector<std::vector<QColor>> gapColors_;  // parallel to gaps_
    std::vector<uint8_t> searchNames_;
    std::vector<Annotation> annotations_;
    uint64_t currentAnnotation_ = 0;
    TimelineColors colors_;
    mutable NameColors names_;  // a memo of colours per name, filled while painting
    uint32_t hover_ = kNone;
    QPoint pressPos_;
    TimeWindow pressWindow_;
    int pressScroll_ = 0;
    bool dragging_ = false;
    bool selectingRange_ = false;
    // A press in the gutter: the row, and once dragged, where it would drop.
    int gutterPressRow_ = -1;
    std::optional<TimelineLayout::RowDrop> drop_;
    QString trackFilter_;
    TimeNs rangeAnchor_ = 0;
    PaintStats lastStats_;
    uint64_t contentVersion_ = 0;
    uint64_t traceContentVersion_ = 0;  // frames older than this show another trace
    std::shared_ptr<const FrameContent> content_;
    std::shared_ptr<NameColors> workerNames_;  // touched only by the frame worker
    QImage frame_;
    std::optional<FrameKey> frameKey_;
    std::optional<FrameKey> requestedKey_;
    uint64_t framesDrawn_ = 0;
    uint64_t framesDrawnOffThread_ = 0;
    std::unique_ptr<CoalescingRunner> frames_;  // last: joined before the rest goes
};

}  // namespace gapscope::ui
