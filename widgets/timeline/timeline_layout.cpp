#include "timeline/timeline_layout.h"

#include <algorithm>
#include <set>
#include <unordered_set>

namespace gapscope::ui {

void TimelineLayout::setTrace(std::shared_ptr<const Trace> trace) {
    trace_ = std::move(trace);
    arr_ = {};
    shownTracks_.clear();
    shownCounters_.clear();
    deriveFlags();
    rebuild();
}

void TimelineLayout::toggleIn(std::vector<uint32_t>& list, uint32_t i) {
    const auto it = std::find(list.begin(), list.end(), i);
    if (it == list.end()) {
        list.push_back(i);
    } else {
        list.erase(it);
    }
}

void TimelineLayout::toggleProcess(uint32_t p) {
    toggleIn(arr_.collapsedProcesses, p);
    deriveFlags();
    rebuild();
}

void TimelineLayout::toggleRank(uint32_t r) {
    toggleIn(arr_.collapsedRanks, r);
    deriveFlags();
    rebuild();
}

void TimelineLayout::toggleTrack(uint32_t t) {
    toggleIn(arr_.collapsedTracks, t);
    deriveFlags();
    rebuild();
}

void TimelineLayout::setAllCollapsed(bool collapsed) {
    arr_.collapsedProcesses.clear();
    arr_.collapsedRanks.clear();
    arr_.collapsedTracks.clear();
    if (collapsed && trace_) {
        // Groups only: a collapsed process or rank hides its tracks anyway.
        for (uint32_t p = 0; p < trace_->processes.size(); ++p)
            arr_.collapsedProcesses.push_back(p);
        for (uint32_t r = 0; r < trace_->ranks.size(); ++r)
            arr_.collapsedRanks.push_back(r);
    }
    deriveFlags();
    rebuild();
}

void TimelineLayout::setGpusOnTop(bool on) {
    gpusOnTop_ = on;
    rebuild();
}

void TimelineLayout::setShown(std::vector<uint8_t> tracks, std::vector<uint8_t> counters) {
    shownTracks_ = std::move(tracks);
    shownCounters_ = std::move(counters);
    rebuild();
}

void TimelineLayout::setArrangement(TrackArrangement a) {
    arr_ = {};
    if (trace_) {
        const Trace& t = *trace_;
        auto valid = [&](TrackItem i) {
            return i.counter ? i.index < t.counters.size() : i.index < t.tracks.size();
        };
        // Valid and each once (a set: after "Collapse all" a list holds every process).
        auto keep = [](auto& list, auto ok) {
            using T = std::decay_t<decltype(list[0])>;
            std::set<T> seen;
            std::vector<T> out;
            for (const auto& v : list)
                if (ok(v) && seen.insert(v).second) out.push_back(v);
            list = std::move(out);
        };
        const auto processes = static_cast<uint32_t>(t.processes.size());
        keep(a.pinned, valid);
        const std::set<TrackItem> pinned(a.pinned.begin(), a.pinned.end());
        keep(a.hidden, [&](TrackItem i) { return valid(i) && !pinned.count(i); });
        keep(a.hiddenProcesses, [&](uint32_t p) { return p < processes; });
        keep(a.processOrder, [&](uint32_t p) { return p < processes; });
        if (a.trackOrder.size() > processes) a.trackOrder.resize(processes);
        for (uint32_t p = 0; p < a.trackOrder.size(); ++p)
            keep(a.trackOrder[p],
                 [&](uint32_t tr) { return tr < t.tracks.size() && t.tracks[tr].process == p; });
        keep(a.collapsedProcesses, [&](uint32_t p) { return p < processes; });
        keep(a.collapsedTracks, [&](uint32_t tr) { return tr < t.tracks.size(); });
        keep(a.collapsedRanks, [&](uint32_t r) { return r < t.ranks.size(); });
        arr_ = std::move(a);
    }
    deriveFlags();
    rebuild();
}

bool TimelineLayout::isPinned(TrackItem i) const {
    return flag(i.index, i.counter ? counterFlags_ : trackFlags_, kPinned);
}

bool TimelineLayout::isHidden(TrackItem i) const {
    return flag(i.index, i.counter ? counterFlags_ : trackFlags_, kHidden);
}

// Pinned and hidden exclude each other: an item put in one leaves the other.
void TimelineLayout::putIn(std::vector<TrackItem> TrackArrangement::*list,
                           std::vector<TrackItem> TrackArrangement::*other, TrackItem item,
                           bool in) {
    TrackArrangement a = arr_;
    std::erase(a.*list, item);
    if (in) {
        (a.*list).push_back(item);
        std::erase(a.*other, item);
    }
    setArrangement(std::move(a));
}

void TimelineLayout::setPinned(TrackItem item, bool pinned) {
    putIn(&TrackArrangement::pinned, &TrackArrangement::hidden, item, pinned);
}

void TimelineLayout::setHidden(TrackItem item, bool hidden) {
    putIn(&TrackArrangement::hidden, &TrackArrangement::pinned, item, hidden);
}

void TimelineLayout::setProcessHidden(uint32_t p, bool hidden) {
    std::erase(arr_.hiddenProcesses, p);
    if (hidden && trace_ && p < trace_->processes.size()) arr_.hiddenProcesses.push_back(p);
    deriveFlags();
    rebuild();
}

size_t TimelineLayout::hiddenCount() const {
    return arr_.hidden.size() + arr_.hiddenProcesses.size();
}

void TimelineLayout::showAllHidden() {
    arr_.hidden.clear();
    arr_.hiddenProcesses.clear();
    deriveFlags();
    rebuild();
}

namespace {

// Moves `item` to just before `before` in `order` (to the end when
// `before` is not there).
template <typename T>
void moveBefore(std::vector<T>& order, const T& item, const std::optional<T>& before) {
    std::erase(order, item);
    const auto at = before ? std::find(order.begin(), order.end(), *before) : order.end();
    order.insert(at, item);
}

}  // namespace

std::vector<uint32_t> TimelineLayout::processesInOrder(uint32_t first, uint32_t count) const {
    std::vector<uint32_t> out(count);
    for (uint32_t i = 0; i < count; ++i)
        out[i] = first + i;
    if (arr_.processOrder.empty()) return out;
    // Processes not in the order keep their place after the ordered ones.
    std::vector<uint32_t> position(trace_->processes.size(), kNone);
    for (uint32_t i = 0; i < arr_.processOrder.size(); ++i)
        position[arr_.processOrder[i]] = i;
    std::stable_sort(out.begin(), out.end(),
                     [&](uint32_t a, uint32_t b) { return position[a] < position[b]; });
    return out;
}

std::vector<uint32_t> TimelineLayout::tracksInOrder(uint32_t p) const {
    const std::vector<uint32_t>& own = trace_->processes[p].tracks;
    if (p >= arr_.trackOrder.size() || arr_.trackOrder[p].empty()) return own;
    std::vector<uint32_t> out = arr_.trackOrder[p];
    const std::unordered_set<uint32_t> ordered(out.begin(), out.end());
    for (const uint32_t tr : own)
        if (!ordered.count(tr)) out.push_back(tr);
    return out;
}

void TimelineLayout::moveProcess(uint32_t p, uint32_t before) {
    if (!trace_ || p >= trace_->processes.size()) return;
    std::vector<uint32_t> order =
        processesInOrder(0, static_cast<uint32_t>(trace_->processes.size()));
    moveBefore(order, p, before == kNone ? std::nullopt : std::optional<uint32_t>(before));
    arr_.processOrder = std::move(order);
    rebuild();
}

void TimelineLayout::moveTrack(uint32_t track, uint32_t before) {
    if (!trace_ || track >= trace_->tracks.size()) return;
    const uint32_t p = trace_->tracks[track].process;
    if (before != kNone && (before >= trace_->tracks.size() || trace_->tracks[before].process != p))
        return;
    std::vector<uint32_t> order = tracksInOrder(p);
    moveBefore(order, track, before == kNone ? std::nullopt : std::optional<uint32_t>(before));
    if (arr_.trackOrder.size() <= p) arr_.trackOrder.resize(p + 1);
    arr_.trackOrder[p] = std::move(order);
    rebuild();
}

void TimelineLayout::movePinned(TrackItem item, std::optional<TrackItem> before) {
    if (!isPinned(item)) return;
    moveBefore(arr_.pinned, item, before);
    rebuild();
}

std::vector<size_t> TimelineLayout::dropCandidates(size_t from, int& endY) const {
    std::vector<size_t> out;
    if (!trace_ || from >= rows_.size()) return out;
    const DisplayRow& d = rows_[from];
    const Trace& t = *trace_;
    auto isLabel = [](const DisplayRow& r) {
        return r.firstOfTrack && r.kind != DisplayRow::Kind::Counter;
    };
    if (d.pinned) {
        if (!d.firstOfTrack) return out;
        for (size_t r = 0; r < pinnedRows_; ++r)
            if (rows_[r].firstOfTrack) out.push_back(r);
        endY = pinnedHeight_;
    } else if (d.kind == DisplayRow::Kind::ProcessHeader) {
        // Among the processes of its rank (and of its part, GPUs on top).
        const Process& own = t.processes[d.process];
        const bool gpu = own.kind == ProcessKind::Gpu;
        for (size_t r = pinnedRows_; r < rows_.size(); ++r) {
            const DisplayRow& h = rows_[r];
            if (h.kind != DisplayRow::Kind::ProcessHeader) continue;
            const Process& p = t.processes[h.process];
            if (p.group != own.group || (gpusOnTop_ && (p.kind == ProcessKind::Gpu) != gpu))
                continue;
            out.push_back(r);
            endY = processExtent_[h.process].second;
        }
    } else if (isLabel(d)) {
        // Among the tracks of its process.
        for (size_t r = pinnedRows_; r < rows_.size(); ++r) {
            const DisplayRow& l = rows_[r];
            const bool trackRow = l.kind == DisplayRow::Kind::Slices ||
                                  l.kind == DisplayRow::Kind::Instants ||
                                  l.kind == DisplayRow::Kind::Counter;
            if (!trackRow || l.process != d.process) continue;
            if (l.kind == DisplayRow::Kind::Counter) break;
            if (isLabel(l)) out.push_back(r);
            endY = l.y + l.height;
        }
    }
    return out;
}

std::optional<TimelineLayout::RowDrop> TimelineLayout::dropAt(size_t from, int contentY) const {
    int endY = 0;
    const std::vector<size_t> candidates = dropCandidates(from, endY);
    if (candidates.empty()) return std::nullopt;
    // Before the first whose top half is below the cursor.
    for (const size_t c : candidates)
        if (contentY < rows_[c].y + rows_[c].height / 2) return RowDrop{from, c, rows_[c].y};
    return RowDrop{from, rows_.size(), endY};
}

std::optional<TimelineLayout::RowDrop> TimelineLayout::moveStep(size_t from, int direction) const {
    int endY = 0;
    const std::vector<size_t> candidates = dropCandidates(from, endY);
    const auto own = std::find(candidates.begin(), candidates.end(), from);
    if (own == candidates.end()) return std::nullopt;
    const auto i = static_cast<size_t>(own - candidates.begin());
    if (direction < 0) {
        if (i == 0) return std::nullopt;
        return RowDrop{from, candidates[i - 1], rows_[candidates[i - 1]].y};
    }
    if (i + 1 >= candidates.size()) return std::nullopt;
    if (i + 2 == candidates.size()) return RowDrop{from, rows_.size(), endY};
    return RowDrop{from, candidates[i + 2], rows_[candidates[i + 2]].y};
}

void TimelineLayout::drop(const RowDrop& d) {
    if (d.from >= rows_.size()) return;
    const DisplayRow from = rows_[d.from];
    const bool end = d.before >= rows_.size();
    const DisplayRow before = end ? DisplayRow{} : rows_[d.before];
    if (from.pinned) {
        movePinned(*from.item(), end ? std::nullopt : before.item());
    } else if (from.kind == DisplayRow::Kind::ProcessHeader) {
        if (end) {
            // After the last of its group: before whatever process follows it.
            int endY = 0;
            const std::vector<size_t> group = dropCandidates(d.from, endY);
            const std::vector<uint32_t> order =
                processesInOrder(0, static_cast<uint32_t>(trace_->processes.size()));
            const uint32_t last = rows_[group.back()].process;
            const auto it = std::find(order.begin(), order.end(), last);
            moveProcess(from.process, it + 1 == order.end() ? kNone : *(it + 1));
        } else {
            moveProcess(from.process, before.process);
        }
    } else if (from.item()) {
        moveTrack(from.track, end ? kNone : before.track);
    }
}

void TimelineLayout::deriveFlags() {
    processFlags_.assign(trace_ ? trace_->processes.size() : 0, 0);
    trackFlags_.assign(trace_ ? trace_->tracks.size() : 0, 0);
    counterFlags_.assign(trace_ ? trace_->counters.size() : 0, 0);
    rankFlags_.assign(trace_ ? trace_->ranks.size() : 0, 0);
    auto set = [](std::vector<uint8_t>& flags, uint32_t i, uint8_t f) {
        if (i < flags.size()) flags[i] |= f;
    };
    for (const uint32_t p : arr_.collapsedProcesses)
        set(processFlags_, p, kCollapsed);
    for (const uint32_t p : arr_.hiddenProcesses)
        set(processFlags_, p, kHidden);
    for (const uint32_t t : arr_.collapsedTracks)
        set(trackFlags_, t, kCollapsed);
    for (const uint32_t r : arr_.collapsedRanks)
        set(rankFlags_, r, kCollapsed);
    for (const TrackItem i : arr_.hidden)
        set(i.counter ? counterFlags_ : trackFlags_, i.index, kHidden);
    for (const TrackItem i : arr_.pinned)
        set(i.counter ? counterFlags_ : trackFlags_, i.index, kPinned);
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

bool TimelineLayout::trackShown(uint32_t tr) const {
    if (trackFlags_[tr] & (kHidden | kPinned)) return false;
    return !filtered() || (tr < shownTracks_.size() && shownTracks_[tr]);
}

bool TimelineLayout::counterShown(uint32_t c) const {
    if (counterFlags_[c] & (kHidden | kPinned)) return false;
    return !filtered() || (c < shownCounters_.size() && shownCounters_[c]);
}

void TimelineLayout::pushTrack(uint32_t p, uint32_t tr, bool pinned, int& y) {
    RowPusher push{rows_, y};
    const Track& track = trace_->tracks[tr];
    // Instants get a thin marker row above the track's slices.
    const bool instants = track.instantEnd > track.instantBegin;
    if (instants) {
        DisplayRow row{DisplayRow::Kind::Instants, p, tr, 0};
        row.firstOfTrack = true;
        row.pinned = pinned;
        push(row, track.rows.empty() ? kRowHeight : kInstantsHeight);
    }
    trackRowBase_[tr] = static_cast<int>(rows_.size());
    // A collapsed track keeps its first row.
    const auto shown = static_cast<uint32_t>(
        isTrackCollapsed(tr) ? std::min<size_t>(1, track.rows.size()) : track.rows.size());
    for (uint32_t r = 0; r < shown; ++r) {
        DisplayRow row{DisplayRow::Kind::Slices, p, tr, r};
        row.firstOfTrack = r == 0 && !instants;
        row.pinned = pinned;
        push(row, kRowHeight);
    }
}

void TimelineLayout::pushCounter(uint32_t p, uint32_t c, bool pinned, int& y) {
    DisplayRow row{DisplayRow::Kind::Counter, p};
    row.counter = c;
    row.firstOfTrack = true;
    row.pinned = pinned;
    RowPusher{rows_, y}(row, kCounterHeight);
}

void TimelineLayout::pushProcess(uint32_t p, int& y) {
    const Trace& t = *trace_;
    const int top = y;
    if (isProcessHidden(p)) {
        processExtent_[p] = {top, top};
        return;
    }
    if (filtered()) {
        const auto& tracks = t.processes[p].tracks;
        bool any =
            std::any_of(tracks.begin(), tracks.end(), [&](uint32_t tr) { return trackShown(tr); });
        for (uint32_t c = 0; c < t.counters.size() && !any; ++c)
            any = t.counters[c].process == p && counterShown(c);
        if (!any) {
            processExtent_[p] = {top, top};
            return;
        }
    }
    RowPusher{rows_, y}({DisplayRow::Kind::ProcessHeader, p}, kHeaderHeight);
    if (!isProcessCollapsed(p)) {
        for (const uint32_t tr : tracksInOrder(p))
            if (trackShown(tr)) pushTrack(p, tr, false, y);
        for (uint32_t c = 0; c < t.counters.size(); ++c)
            if (t.counters[c].process == p && counterShown(c)) pushCounter(p, c, false, y);
    }
    processExtent_[p] = {top, y};
}

void TimelineLayout::rebuild() {
    rows_.clear();
    trackRowBase_.clear();
    processExtent_.clear();
    pinnedRows_ = 0;
    pinnedHeight_ = 0;
    totalHeight_ = 0;
    if (!trace_) return;
    const Trace& t = *trace_;
    trackRowBase_.assign(t.tracks.size(), -1);
    processExtent_.assign(t.processes.size(), {0, 0});
    int y = 0;
    RowPusher push{rows_, y};
    if (!arr_.pinned.empty()) {
        push({DisplayRow::Kind::PinnedHeader}, kHeaderHeight);
        for (const TrackItem i : arr_.pinned) {
            if (i.counter) {
                pushCounter(t.counters[i.index].process, i.index, true, y);
            } else {
                pushTrack(t.tracks[i.index].process, i.index, true, y);
            }
        }
        pinnedRows_ = rows_.size();
        pinnedHeight_ = y;
    }
    if (t.ranks.empty()) {
        for (const uint32_t p : processesInOrder(0, static_cast<uint32_t>(t.processes.size())))
            pushProcess(p, y);
        totalHeight_ = y;
        return;
    }
    auto isGpu = [&](uint32_t p) { return t.processes[p].kind == ProcessKind::Gpu; };
    if (gpusOnTop_) {
        for (const TraceRank& r : t.ranks)
            for (const uint32_t p : processesInOrder(r.firstProcess, r.processCount))
                if (isGpu(p)) pushProcess(p, y);
    }
    for (uint32_t g = 0; g < t.ranks.size(); ++g) {
        const TraceRank& r = t.ranks[g];
        push({DisplayRow::Kind::RankHeader, g}, kHeaderHeight);
        for (const uint32_t p : processesInOrder(r.firstProcess, r.processCount)) {
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
