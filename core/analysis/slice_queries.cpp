#include "analysis/slice_queries.h"

#include <algorithm>
#include <unordered_map>

namespace gapscope {

TimeNs selfTime(const Trace& t, uint32_t slice) {
    if (slice >= t.slices.size()) return 0;
    const Slice& s = t.slices[slice];
    const uint32_t tr = t.trackOfSlice(slice);
    if (tr == kNone) return s.dur;
    const Track& track = t.tracks[tr];
    return std::max<TimeNs>(0,
                            s.dur - childTimes(t, track, track.rows[s.row], slice, slice + 1)[0]);
}

uint32_t neighbourSlice(const Trace& t, uint32_t slice, SliceStep step) {
    if (slice >= t.slices.size()) return kNone;
    const uint32_t tr = t.trackOfSlice(slice);
    if (tr == kNone) return kNone;
    const Track& track = t.tracks[tr];
    const Slice& s = t.slices[slice];
    const Row& row = track.rows[s.row];
    if (step == SliceStep::Previous) return slice > row.begin ? slice - 1 : kNone;
    if (step == SliceStep::Next) return slice + 1 < row.end ? slice + 1 : kNone;
    const int wanted = row.depth + (step == SliceStep::Parent ? -1 : 1);
    for (const Row& other : track.rows) {
        if (other.lane != row.lane || int(other.depth) != wanted) continue;
        // Rows are sorted by start and never overlap internally.
        const auto first = t.slices.begin() + other.begin, last = t.slices.begin() + other.end;
        if (step == SliceStep::Parent) {
            // The last slice starting at or before s: it encloses s if it ends after s starts.
            auto it = std::upper_bound(first, last, s.start,
                                       [](TimeNs v, const Slice& x) { return v < x.start; });
            if (it == first) return kNone;
            --it;
            const bool encloses = it->end() > s.start || it->end() >= s.end();
            return encloses ? static_cast<uint32_t>(it - t.slices.begin()) : kNone;
        }
        // The first slice starting inside s.
        const auto it = std::lower_bound(first, last, s.start,
                                         [](const Slice& x, TimeNs v) { return x.start < v; });
        return it != last && it->start < std::max(s.end(), s.start + 1)
                   ? static_cast<uint32_t>(it - t.slices.begin())
                   : kNone;
    }
    return kNone;
}

std::vector<TimeNs> childTimes(const Trace& t, const Track& track, const Row& row, uint32_t lo,
                               uint32_t hi) {
    std::vector<TimeNs> out(hi > lo ? hi - lo : 0, 0);
    if (out.empty()) return out;
    // Rows never overlap internally: the last slice ends last.
    const TimeNs from = t.slices[lo].start, to = t.slices[hi - 1].end();
    for (const Row& child : track.rows) {
        if (child.lane != row.lane || child.depth != row.depth + 1) continue;
        const auto [clo, chi] = t.visibleInRow(child, from, to);
        uint32_t p = lo;  // the first parent that does not end before the child
        for (uint32_t i = clo; i < chi; ++i) {
            const Slice& c = t.slices[i];
            while (p < hi && t.slices[p].end() <= c.start)
                ++p;
            for (uint32_t q = p; q < hi && t.slices[q].start < c.end(); ++q) {
                const Slice& s = t.slices[q];
                out[q - lo] +=
                    std::max<TimeNs>(0, std::min(c.end(), s.end()) - std::max(c.start, s.start));
            }
        }
    }
    return out;
}

std::vector<NameTotal> summarizeRange(const Trace& t, TimeNs t0, TimeNs t1, uint32_t onlyTrack,
                                      const CancelToken* cancel) {
    std::unordered_map<StringId, NameTotal> byName;
    for (uint32_t tr = 0; tr < t.tracks.size(); ++tr) {
        if (onlyTrack != kNone && tr != onlyTrack) continue;
        for (const Row& row : t.tracks[tr].rows) {
            if (cancel && cancel->isCancelled()) return {};
            const auto [lo, hi] = t.visibleInRow(row, t0, t1);
            for (uint32_t i = lo; i < hi; ++i) {
                if ((i & 0xffff) == 0 && cancel && cancel->isCancelled()) return {};
                const Slice& s = t.slices[i];
                NameTotal& n = byName[s.name];
                n.name = s.name;
                ++n.count;
                n.totalNs += std::max<TimeNs>(0, std::min(s.end(), t1) - std::max(s.start, t0));
            }
        }
    }
    std::vector<NameTotal> out;
    out.reserve(byName.size());
    for (auto& [name, total] : byName)
        out.push_back(total);
    std::sort(out.begin(), out.end(), [](const NameTotal& a, const NameTotal& b) {
        return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.name < b.name;
    });
    return out;
}

SliceSetSummary summarizeSlices(const Trace& t, const std::vector<uint32_t>& slices,
                                const CancelToken* cancel) {
    SliceSetSummary out;
    std::unordered_map<StringId, size_t> at;  // name -> index in byName
    TimeNs first = INT64_MAX, last = INT64_MIN;
    for (size_t k = 0; k < slices.size(); ++k) {
        if ((k & 0xFFFF) == 0 && cancel && cancel->isCancelled()) return {};
        if (slices[k] >= t.slices.size()) continue;
        const Slice& s = t.slices[slices[k]];
        ++out.count;
        out.total += s.dur;
        first = std::min(first, s.start);
        last = std::max(last, s.end());
        const auto [it, fresh] = at.try_emplace(s.name, out.byName.size());
        if (fresh) out.byName.push_back({s.name, 0, 0});
        NameTotal& n = out.byName[it->second];
        ++n.count;
        n.totalNs += s.dur;
    }
    if (out.count) {
        out.firstStart = first;
        out.lastEnd = last;
    }
    std::stable_sort(out.byName.begin(), out.byName.end(),
                     [](const NameTotal& a, const NameTotal& b) { return a.totalNs > b.totalNs; });
    return out;
}

std::vector<const Flow*> flowsInto(const Trace& t, uint32_t slice) {
    std::vector<const Flow*> out;
    for (const Flow& f : t.flows) {
        if (f.to == slice) out.push_back(&f);
    }
    return out;
}

std::vector<const Flow*> flowsOutOf(const Trace& t, uint32_t slice) {
    std::vector<const Flow*> out;
    for (const Flow& f : t.flows) {
        if (f.from == slice) out.push_back(&f);
    }
    return out;
}

std::string trackLabel(const Trace& t, uint32_t track) {
    if (track >= t.tracks.size()) return {};
    const Track& tr = t.tracks[track];
    return t.processes[tr.process].displayName + " · " + tr.displayName;
}

}  // namespace gapscope
