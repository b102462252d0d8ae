#pragma once
// The timeline's navigation and selection state, shared by the ruler, the
// overview, the timeline and the panels: nested ranges (trace bounds ⊇
// visible window; a selected range; a selected slice), zoom history, one
// signal per change, emitted only when the value really changes.

#include <QObject>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "timeline/time_axis.h"

namespace gapscope::ui {

class PathOverlay;

class ViewState : public QObject {
    Q_OBJECT
  public:
    explicit ViewState(QObject* parent = nullptr);

    // How a change of the visible window enters the back/forward history.
    enum class History {
        Record,    // a discrete jump (fit, overview click): always recorded
        Coalesce,  // continuous navigation (wheel, keys, drag): one entry per gesture
        None
    };

    static constexpr TimeNs kMinSpan = 100;  // ns: the deepest zoom
    // Coalesced changes further apart than this start a new history entry.
    static constexpr qint64 kGestureGapMs = 700;

    // Milliseconds on a monotonic clock; tests inject their own.
    using Clock = std::function<qint64()>;
    void setClock(Clock clock) { clock_ = std::move(clock); }

    void reset(TimeWindow bounds);  // new trace: fit all, clear selection and history
    // Wider (or narrower) bounds for the same trace, as a comparison needs to
    // scroll one run as far as the other: the selection and history stay,
    // the visible window only as far as it fits.
    void setBounds(TimeWindow bounds);
    TimeWindow bounds() const { return bounds_; }
    TimeWindow visible() const { return visible_; }
    void setVisible(TimeWindow w, History history = History::Coalesce);
    void zoomAt(TimeNs anchor, double factor);
    void panBy(TimeNs delta);
    void fitAll();
    void fit(TimeWindow w);  // with a little margin, recorded in history

    bool canGoBack() const { return !back_.empty(); }
    bool canGoForward() const { return !forward_.empty(); }
    void goBack();
    void goForward();

    std::optional<TimeWindow> selectedRange() const { return range_; }
    void setSelectedRange(std::optional<TimeWindow> range);
    uint32_t selectedSlice() const { return slice_; }
    void setSelectedSlice(uint32_t slice);  // the only selected slice (kNone: none)
    // Ctrl+click: adds a slice to the selection, or takes it out. The first
    // selected stays the primary one (Details, arrow keys, F).
    void toggleSliceInSelection(uint32_t slice);
    // Every selected slice, the primary one first.
    std::vector<uint32_t> selectedSlices() const;
    // The selected slices besides the primary one.
    const std::vector<uint32_t>& alsoSelected() const { return alsoSelected_; }

    // The critical path the timeline draws over the tracks (the Critical
    // path panel's "Show on the timeline"); null: none. A new trace clears it.
    const std::shared_ptr<const PathOverlay>& pathOverlay() const { return path_; }
    void setPathOverlay(std::shared_ptr<const PathOverlay> path);
    // Whether the rest of the tracks is veiled while a path is drawn.
    bool pathDimmed() const { return pathDimmed_; }
    void setPathDimmed(bool dimmed);

  signals:
    void visibleChanged(gapscope::ui::TimeWindow window);
    void selectedRangeChanged();
    void selectedSliceChanged(uint32_t slice);
    void historyChanged();
    void pathOverlayChanged();

  private:
    void record(TimeWindow previous);

    TimeWindow bounds_{0, 1};
    TimeWindow visible_{0, 1};
    std::optional<TimeWindow> range_;
    uint32_t slice_ = kNone;
    std::vector<uint32_t> alsoSelected_;  // Ctrl+clicked besides slice_
    std::shared_ptr<const PathOverlay> path_;
    bool pathDimmed_ = false;
    std::vector<TimeWindow> back_, forward_;
    Clock clock_;
    std::optional<qint64> lastCoalescedMs_;  // when the gesture in progress last moved
};

}  // namespace gapscope::ui
