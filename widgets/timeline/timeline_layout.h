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

#include <memory>
#include <unordered_set>
#include <vector>

#include "model/trace.h"

namespace gapscope::ui {

struct DisplayRow {
    enum class Kind : uint8_t { ProcessHeader, Instants, Slices, Counter, RankHeader };
    Kind kind = Kind::Slices;
    uint32_t process = 0;       // RankHeader: the rank (index into Trace::ranks)
    uint32_t track = kNone;     // Slices, Instants
    uint32_t row = 0;           // Slices: index in Track::rows
    uint32_t counter = kNone;   // Counter
    bool firstOfTrack = false;  // the track's label is drawn on this row
    int y = 0;
    int height = 0;
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
    // The row at content y, or -1.
    int rowAt(int y) const;
    // Content y of a slice's row, or -1 when it is collapsed away.
    int yOfSlice(uint32_t slice) const;
    // [top, bottom) of a process's rows (header included).
    std::pair<int, int> processExtent(uint32_t process) const;

    bool isProcessCollapsed(uint32_t p) const { return collapsedProcesses_.count(p) > 0; }
    bool isTrackCollapsed(uint32_t t) const { return collapsedTracks_.count(t) > 0; }
    void toggleProcess(uint32_t p);
    void toggleTrack(uint32_t t);
    bool isRankCollapsed(uint32_t r) const { return collapsedRanks_.count(r) > 0; }
    void toggleRank(uint32_t r);
    bool gpusOnTop() const { return gpusOnTop_; }
    void setGpusOnTop(bool on);
    // Only these tracks and counters (1 = shown, by index; empty = all); a
    // process with none of them shown is left out, header and all. For
    // exported pictures of some of the tracks.
    void setShown(std::vector<uint8_t> tracks, std::vector<uint8_t> counters);

  private:
    void rebuild();

    std::shared_ptr<const Trace> trace_;
    std::vector<DisplayRow> rows_;
    std::vector<int> trackRowBase_;  // per track: index into rows_ of its row 0, or -1
    std::vector<std::pair<int, int>> processExtent_;
    void pushProcess(uint32_t p, int& y);

    std::unordered_set<uint32_t> collapsedProcesses_, collapsedTracks_, collapsedRanks_;
    bool gpusOnTop_ = false;
    std::vector<uint8_t> shownTracks_, shownCounters_;
    int totalHeight_ = 0;
};

}  // namespace gapscope::ui
