#include "timeline/timeline_layout.h"

#include <algorithm>

namespace gapscope::ui {

void TimelineLayout::setTrace(std::shared_ptr<const Trace> trace) {
    trace_ = std::move(trace);
    collapsedProcesses_.clear();
    collapsedTracks_.clear();
    collapsedRanks_.clear();
    shownTracks_.clear();
    shownCounters_.clear();
    rebuild();
}

void TimelineLayout::toggleProcess(uint32_t p) {
    if (!collapsedProcesses_.erase(p)) collapsedProcesses_.insert(p);
    rebuild();
}

void TimelineLayout::toggleRank(uint32_t r) {
    if (!collapsedRanks_.erase(r)) collapsedRanks_.insert(r);
    rebuild();
}

void TimelineLayout::setGpusOnTop(bool on) {
    gpusOnTop_ = on;
    rebuild();
}

void TimelineLayout::toggleTrack(uint32_t t) {
    if (!collapsedTracks_.erase(t)) collapsedTracks_.insert(t);
    rebuild();
}

void TimelineLayout::setShown(std::vector<uint8_t> tracks, std::vector<uint8_t> counters) {
    shownTracks_ = std::move(tracks);
    shownCounters_ = std::move(counters);
    rebuild();
}

namespace {

struct RowPusher {
    std::vector<DisplayRow>& rows;
    int& y;
    void operator()(DisplayRow r, int height) {
        r.y = y;
        r.height = height;
        y += height;
        rows.push_back(r);
    }
};

}  // namespace

void TimelineLayout::pushProcess(uint32_t p, int& y) {
    const Trace& t = *trace_;
    RowPusher push{rows_, y};
    const int top = y;
    const bool filtered = !shownTracks_.empty() || !shownCounters_.empty();
    auto trackShown = [&](uint32_t tr) {
        return !filtered || (tr < shownTracks_.size() && shownTracks_[tr]);
    };
    auto counterShown = [&](uint32_t c) {
        return !filtered || (c < shownCounters_.size() && shownCounters_[c]);
    };
    if (filtered) {
        bool any =
            std::any_of(t.processes[p].tracks.begin(), t.processes[p].tracks.end(), trackShown);
        for (uint32_t c = 0; c < t.counters.size() && !any; ++c)
            any = t.counters[c].process == p && counterShown(c);
        if (!any) {
            processExtent_[p] = {top, top};
            return;
        }
    }
    push({DisplayRow::Kind::ProcessHeader, p}, kHeaderHeight);
    if (!isProcessCollapsed(p)) {
        for (uint32_t tr : t.processes[p].tracks) {
            if (!trackShown(tr)) continue;
            const Track& track = t.tracks[tr];
            // Instants get a thin marker row above the track's slices.
            const bool instants = track.instantEnd > track.instantBegin;
            if (instants) {
                DisplayRow row{DisplayRow::Kind::Instants, p, tr, 0};
                row.firstOfTrack = true;
                push(row, track.rows.empty() ? kRowHeight : kInstantsHeight);
            }
            trackRowBase_[tr] = static_cast<int>(rows_.size());
            // A collapsed track keeps its first row.
            const auto shown = static_cast<uint32_t>(
                isTrackCollapsed(tr) ? std::min<size_t>(1, track.rows.size()) : track.rows.size());
            for (uint32_t r = 0; r < shown; ++r) {
                DisplayRow row{DisplayRow::Kind::Slices, p, tr, r};
                row.firstOfTrack = r == 0 && !instants;
                push(row, kRowHeight);
            }
        }
        for (uint32_t c = 0; c < t.counters.size(); ++c) {
            if (t.counters[c].process != p || !counterShown(c)) continue;
            DisplayRow row{DisplayRow::Kind::Counter, p};
            row.counter = c;
            row.firstOfTrack = true;
            push(row, kCounterHeight);
        }
    }
    processExtent_[p] = {top, y};
}

void TimelineLayout::rebuild() {
    rows_.clear();
    trackRowBase_.clear();
    processExtent_.clear();
    totalHeight_ = 0;
    if (!trace_) return;
    const Trace& t = *trace_;
    trackRowBase_.assign(t.tracks.size(), -1);
    processExtent_.assign(t.processes.size(), {0, 0});
    int y = 0;
    if (t.ranks.empty()) {
        for (uint32_t p = 0; p < t.processes.size(); ++p)
            pushProcess(p, y);
        totalHeight_ = y;
        return;
    }
    auto isGpu = [&](uint32_t p) { return t.processes[p].kind == ProcessKind::Gpu; };
    if (gpusOnTop_) {
        for (const TraceRank& r : t.ranks)
            for (uint32_t p = r.firstProcess; p < r.firstProcess + r.processCount; ++p)
                if (isGpu(p)) pushProcess(p, y);
    }
    RowPusher push{rows_, y};
    for (uint32_t g = 0; g < t.ranks.size(); ++g) {
        const TraceRank& r = t.ranks[g];
        push({DisplayRow::Kind::RankHeader, g}, kHeaderHeight);
        for (uint32_t p = r.firstProcess; p < r.firstProcess + r.processCount; ++p) {
            if (gpusOnTop_ && isGpu(p)) continue;
            if (isRankCollapsed(g)) {
                processExtent_[p] = {y, y};
                continue;
            }
            pushProcess(p, y);
        }
    }
    totalHeight_ = y;
}

int TimelineLayout::rowAt(int y) const {
    if (y < 0 || y >= totalHeight_) return -1;
    const auto it = std::upper_bound(rows_.begin(), rows_.end(), y,
                                     [](int v, const DisplayRow& r) { return v < r.y; });
    return static_cast<int>(it - rows_.begin()) - 1;
}

int TimelineLayout::yOfSlice(uint32_t slice) const {
    if (!trace_ || slice >= trace_->slices.size()) return -1;
    const uint32_t tr = trace_->trackOfSlice(slice);
    if (tr == kNone || trackRowBase_[tr] < 0) return -1;
    const uint32_t row = trace_->slices[slice].row;
    const size_t index = static_cast<size_t>(trackRowBase_[tr]) + row;
    if (index >= rows_.size() || rows_[index].track != tr || rows_[index].row != row) return -1;
    return rows_[index].y;
}

std::pair<int, int> TimelineLayout::processExtent(uint32_t process) const {
    return process < processExtent_.size() ? processExtent_[process] : std::pair<int, int>{0, 0};
}

}  // namespace gapscope::ui
