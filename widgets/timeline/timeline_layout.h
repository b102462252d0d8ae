#pragma once
// The timeline as a list of display rows over the core Trace: a header per
// process (GPUs first), one row per (lane, depth) of each track, counter
// rows; collapsible groups and tracks; y positions and hit-testing. No
// painting and no Qt item models here.
//
// Ranks of a job merged into one trace (Trace::ranks) get a header each
// ("rank N · host") above their processes, collapsible as one; with
// GPUs on top, every rank's GPUs come first (in rank order) and the rank
// groups below hold their host processes.
//
// A person arranges the rows (TrackArrangement): pinned tracks and counters
// come first, under a "Pinned" header, and do not scroll; hidden ones and
// processes are left out; processes and each process's tracks can be put in
// another order. Content y runs over the pinned rows, then the rest; on
// screen the pinned rows stay at the top and the rest scroll under them
// (screenY, rowAtScreen).

#include <climits>
#include <compare>
#include <memory>
#include <optional>
#include <vector>

#include "model/trace.h"

namespace gapscope::ui {

// A track or a counter series: what can be pinned or hidden on its own.
struct TrackItem {
    bool counter = false;
    uint32_t index = kNone;  // into Trace::tracks or Trace::counters
    auto operator<=>(const TrackItem&) const = default;
};

// How a person arranged the rows, by index into the trace. Empty orders
// keep the trace's own.
struct TrackArrangement {
    std::vector<TrackItem> pinned;  // in the order shown
    std::vector<TrackItem> hidden;
    std::vector<uint32_t> hiddenProcesses;
    std::vector<uint32_t> processOrder;             // processes, first shown first
    std::vector<std::vector<uint32_t>> trackOrder;  // per process (may be shorter): its tracks
    std::vector<uint32_t> collapsedProcesses, collapsedTracks, collapsedRanks;
    bool operator==(const TrackArrangement&) const = default;
    bool empty() const { return *this == TrackArrangement{}; }
};

struct DisplayRow {
    enum class Kind : uint8_t {
        ProcessHeader,
        Instants,
        Slices,
        Counter,
        RankHeader,
        PinnedHeader
    };
    Kind kind = Kind::Slices;
    uint32_t process = 0;       // RankHeader: the rank (index into Trace::ranks)
    uint32_t track = kNone;     // Slices, Instants
    uint32_t row = 0;           // Slices: index in Track::rows
    uint32_t counter = kNone;   // Counter
    bool firstOfTrack = false;  // the track's label is drawn on this row
    bool pinned = false;        // in the pinned rows at the top
    int y = 0;
    int height = 0;
    // The track or counter of a track row (Instants, Slices, Counter).
    std::optional<TrackItem> item() const {
        if (kind == Kind::Counter) return TrackItem{true, counter};
        if (kind == Kind::Slices || kind == Kind::Instants) return TrackItem{false, track};
        return std::nullopt;
    }
};

class TimelineLayout {
  public:
    static constexpr int kHeaderHeight = 24;
    static constexpr int kRowHeight = 18;
    static constexpr int kCounterHeight = 40;
    static constexpr int kInstantsHeight = 12;

    void setTrace(std::shared_ptr<const Trace> trace);
    const Trace* trace() const { return trace_.get(); }

    const std::vector<DisplayRow>& rows() const { return rows_; }
    int totalHeight() const { return totalHeight_; }
    // The pinned rows (header included) are rows()[0, pinnedRows()) and
    // content y [0, pinnedHeight()); 0 when nothing is pinned.
    // Pinned rows taller than the sticky limit (the view sets half its
    // height) scroll with the rest: then both are 0.
    size_t pinnedRows() const { return sticky() ? pinnedRows_ : 0; }
    int pinnedHeight() const { return sticky() ? pinnedHeight_ : 0; }
    void setStickyLimit(int px) { stickyLimit_ = px; }
    // Where content y is drawn when the rest is scrolled by scrollY.
    int screenY(int contentY, int scrollY) const {
        return contentY < pinnedHeight() ? contentY : contentY - scrollY;
    }
    // The row at content y, or -1.
    int rowAt(int y) const;
    // The row drawn at screen y, or -1.
    int rowAtScreen(int y, int scrollY) const {
        return rowAt(y < pinnedHeight() ? y : y + scrollY);
    }
    // Content y of a slice's row, or -1 when it is collapsed away.
    int yOfSlice(uint32_t slice) const;
    // [top, bottom) of a process's rows (header included) outside the
    // pinned rows.
    std::pair<int, int> processExtent(uint32_t process) const;

    bool isProcessCollapsed(uint32_t p) const { return flag(p, processFlags_, kCollapsed); }
    bool isTrackCollapsed(uint32_t t) const { return flag(t, trackFlags_, kCollapsed); }
    void toggleProcess(uint32_t p);
    void toggleTrack(uint32_t t);
    bool isRankCollapsed(uint32_t r) const { return flag(r, rankFlags_, kCollapsed); }
    void toggleRank(uint32_t r);
    // Collapses (or expands) every process, rank and track.
    void setAllCollapsed(bool collapsed);
    bool gpusOnTop() const { return gpusOnTop_; }
    void setGpusOnTop(bool on);
    // Only these tracks and counters (1 = shown, by index; empty = all); a
    // process with none of them shown is left out, header and all. For
    // exported pictures of some of the tracks, and the track filter.
    void setShown(std::vector<uint8_t> tracks, std::vector<uint8_t> counters);
    bool filtered() const { return !shownTracks_.empty() || !shownCounters_.empty(); }

    // The arrangement (pin, hide, order, collapse); indices out of the
    // trace's range are dropped.
    const TrackArrangement& arrangement() const { return arr_; }
    void setArrangement(TrackArrangement arrangement);
    bool isPinned(TrackItem item) const;
    void setPinned(TrackItem item, bool pinned);
    bool isHidden(TrackItem item) const;
    void setHidden(TrackItem item, bool hidden);
    bool isProcessHidden(uint32_t p) const { return flag(p, processFlags_, kHidden); }
    void setProcessHidden(uint32_t p, bool hidden);
    // Hidden tracks, counters and processes.
    size_t hiddenCount() const;
    void showAllHidden();
    // Moves a process to just before `before` (kNone: to the end).
    void moveProcess(uint32_t p, uint32_t before);
    // Moves a track to just before `before`, another track of its process
    // (kNone: to the end of its process's tracks).
    void moveTrack(uint32_t track, uint32_t before);
    // Moves a pinned item to just before another (nullopt: to the end).
    void movePinned(TrackItem item, std::optional<TrackItem> before);
    // Dragging row `from` (a process's header, a track's label row, a
    // pinned row's label) to content y: where it would land, before the
    // group or track of row `before` (rows().size(): after the last), with
    // the line to show at content y `y`. Nothing for other rows.
    struct RowDrop {
        size_t from = 0;
        size_t before = 0;
        int y = 0;
    };
    std::optional<RowDrop> dropAt(size_t from, int contentY) const;
    void drop(const RowDrop& drop);
    // The drop that moves row `from` one place up (-1) or down (+1), or
    // nothing at that end.
    std::optional<RowDrop> moveStep(size_t from, int direction) const;
    // The tracks of a process in the order shown.
    std::vector<uint32_t> tracksInOrder(uint32_t p) const;
    // The processes (of one rank, or all) in the order shown.
    std::vector<uint32_t> processesInOrder(uint32_t first, uint32_t count) const;

  private:
    bool sticky() const { return pinnedHeight_ <= stickyLimit_; }
    static constexpr uint8_t kCollapsed = 1, kHidden = 2, kPinned = 4;
    static bool flag(uint32_t i, const std::vector<uint8_t>& flags, uint8_t f) {
        return i < flags.size() && (flags[i] & f);
    }
    void rebuild();
    void pushProcess(uint32_t p, int& y);
    void pushTrack(uint32_t p, uint32_t track, bool pinned, int& y);
    void pushCounter(uint32_t p, uint32_t counter, bool pinned, int& y);
    bool trackShown(uint32_t track) const;
    bool counterShown(uint32_t counter) const;
    // The flag vectors from arr_ (after arr_ changed).
    void deriveFlags();
    static void toggleIn(std::vector<uint32_t>& list, uint32_t i);
    void putIn(std::vector<TrackItem> TrackArrangement::*list,
               std::vector<TrackItem> TrackArrangement::*other, TrackItem item, bool in);
    // The rows a dragged row can be dropped before (see dropAt), in order,
    // and where the last one's group ends.
    std::vector<size_t> dropCandidates(size_t from, int& endY) const;

    std::shared_ptr<const Trace> trace_;
    std::vector<DisplayRow> rows_;
    std::vector<int> trackRowBase_;  // per track: index into rows_ of its row 0, or -1
    std::vector<std::pair<int, int>> processExtent_;

    TrackArrangement arr_;
    std::vector<uint8_t> processFlags_, trackFlags_, counterFlags_, rankFlags_;
    bool gpusOnTop_ = false;
    std::vector<uint8_t> shownTracks_, shownCounters_;
    size_t pinnedRows_ = 0;
    int pinnedHeight_ = 0;
    int stickyLimit_ = INT_MAX;
    int totalHeight_ = 0;
};

}  // namespace gapscope::ui
