#include "analysis/gap_causes.h"

#include <algorithm>
#include <optional>

#include "analysis/analysis_index.h"
#include "analysis/launch_calls.h"
#include "model/slice_kind.h"

namespace gapscope {

const char* gapCauseName(GapCause cause) {
    switch (cause) {
        case GapCause::Input:
            return "input";
        case GapCause::Synchronization:
            return "synchronization";
        case GapCause::Communication:
            return "communication";
        case GapCause::Host:
            return "host";
        case GapCause::Other:
            break;
    }
    return "other";
}

namespace {

// The host slices of one class: their merged union, and the slices
// themselves by start (with the longest duration, to find overlaps fast).
struct HostClassSlices {
    std::vector<Interval> merged;
    std::vector<uint32_t> byStart;
    TimeNs longest = 0;
};

// The host of one group (a rank of merged ranks; the whole trace otherwise).
struct HostClasses {
    HostClassSlices input, sync, comm;
};

}  // namespace

struct GapExplainer::Index {
    Index(const Trace& t, const LaunchCalls* shared) {
        if (!shared) own.emplace(t);
        launches = shared ? shared : &*own;
    }
    std::vector<HostClasses> groups;  // by Process::group
    HostClasses none;                 // of a group without CPU threads
    const HostClasses& of(const GpuDevice& d) const {
        return d.group < groups.size() ? groups[d.group] : none;
    }
    std::optional<LaunchCalls> own;
    const LaunchCalls* launches = nullptr;
};

namespace {

using HostIndex = GapExplainer::Index;

void indexHost(const Trace& t, HostIndex& index) {
    for (const Track& track : t.tracks) {
        if (track.kind != TrackKind::CpuThread) continue;
        const uint32_t group = t.processes[track.process].group;
        if (group >= index.groups.size()) index.groups.resize(group + 1);
        HostClasses& h = index.groups[group];
        for (uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i) {
            const Slice& s = t.slices[i];
            const HostRole role = hostRole(s);
            HostClassSlices* into = role == HostRole::InputWait       ? &h.input
                                    : role == HostRole::Sync          ? &h.sync
                                    : role == HostRole::Communication ? &h.comm
                                                                      : nullptr;
            if (into) {
                into->merged.push_back({s.start, s.end()});
                into->byStart.push_back(i);
                into->longest = std::max(into->longest, s.dur);
            }
        }
    }
    for (HostClasses& h : index.groups) {
        for (HostClassSlices* c : {&h.input, &h.sync, &h.comm}) {
            mergeIntervals(c->merged);
            std::sort(c->byStart.begin(), c->byStart.end(), [&](uint32_t a, uint32_t b) {
                return t.slices[a].start != t.slices[b].start
                           ? t.slices[a].start < t.slices[b].start
                           : a < b;
            });
        }
    }
}

bool coversHalf(const HostClassSlices& c, Interval gap) {
    return 2 * lengthWithin(c.merged, gap) >= gap.length();
}

// The slices of a class that started before t and had not returned by t:
// the host was blocked in them when the GPU went idle.
void blockedAt(const Trace& t, const HostClassSlices& c, TimeNs at, std::vector<uint32_t>& out) {
    const auto from = std::lower_bound(c.byStart.begin(), c.byStart.end(), at - c.longest,
                                       [&](uint32_t i, TimeNs v) { return t.slices[i].start < v; });
    for (auto it = from; it != c.byStart.end() && t.slices[*it].start < at; ++it) {
        if (t.slices[*it].end() >= at) out.push_back(*it);
    }
}

// What the launching thread was doing during the gap, on the launch call's
// lane: the deepest slice that spans the whole gap (the op the host was
// inside; a Python frame or a module above it tells less), else the slices
// overlapping the gap at the shallowest depth that has any. ProfilerStep#
// slices are the step, not work.
void hostWork(const Trace& t, uint32_t launch, Interval gap, std::vector<uint32_t>& out) {
    const Track& track = t.tracks[t.trackOfSlice(launch)];
    const uint16_t lane = track.rows[t.slices[launch].row].lane;
    std::vector<const Row*> rows;
    for (const Row& row : track.rows)
        if (row.lane == lane) rows.push_back(&row);
    std::sort(rows.begin(), rows.end(),
              [](const Row* a, const Row* b) { return a->depth < b->depth; });
    std::vector<uint32_t> level, found;
    for (const Row* row : rows) {
        level.clear();
        const auto [lo, hi] = t.visibleInRow(*row, gap.start, gap.end);
        for (uint32_t i = lo; i < hi; ++i) {
            const Slice& s = t.slices[i];
            if (s.end() > gap.start && s.start < gap.end && sliceKind(s) != SliceKind::Step)
                level.push_back(i);
        }
        if (level.empty()) {
            if (found.empty()) continue;  // only the step so far
            break;
        }
        const Slice& first = t.slices[level.front()];
        if (level.size() == 1 && first.start <= gap.start && first.end() >= gap.end) {
            found = level;  // spans the gap: look inside it
            continue;
        }
        if (found.empty()) found = level;
        break;
    }
    out.insert(out.end(), found.begin(), found.end());
}

// The slices of a class that overlap the gap, by start.
void overlapping(const Trace& t, const HostClassSlices& c, Interval gap,
                 std::vector<uint32_t>& out) {
    const auto from = std::lower_bound(c.byStart.begin(), c.byStart.end(), gap.start - c.longest,
                                       [&](uint32_t i, TimeNs v) { return t.slices[i].start < v; });
    for (auto it = from; it != c.byStart.end() && t.slices[*it].start < gap.end; ++it) {
        if (t.slices[*it].end() > gap.start) out.push_back(*it);
    }
}

void decide(const Trace& t, const GpuDevice& device, const HostIndex& index, CausedGap& g) {
    const HostClasses& host = index.of(device);
    if (coversHalf(host.input, g.gap)) {
        g.cause = GapCause::Input;
        overlapping(t, host.input, g.gap, g.evidence);
        return;
    }
    // The host was blocked in a synchronizing call when the GPU ran dry (it
    // could not run ahead and queue work), or such calls cover half the gap.
    blockedAt(t, host.sync, g.gap.start, g.evidence);
    if (!g.evidence.empty() || coversHalf(host.sync, g.gap)) {
        g.cause = GapCause::Synchronization;
        overlapping(t, host.sync, g.gap, g.evidence);
        return;
    }
    // The activity that ends the gap.
    std::vector<uint32_t> enders;
    forEachActivity(t, device, {g.gap.end, g.gap.end + 1},
                    [&](uint32_t i, const Track&, ActivityKind) {
                        if (t.slices[i].start == g.gap.end) enders.push_back(i);
                    });
    std::vector<uint32_t> commKernels;
    for (const uint32_t k : enders)
        if (sliceKind(t.slices[k]) == SliceKind::CommKernel) commKernels.push_back(k);
    if (!commKernels.empty() || coversHalf(host.comm, g.gap)) {
        g.cause = GapCause::Communication;
        g.evidence = commKernels;
        overlapping(t, host.comm, g.gap, g.evidence);
        return;
    }
    // Each ender's launch call (by correlation id, else by its ac2g flow)
    // came after the GPU went idle: the host was late. The evidence is the
    // launch and what its thread was busy with meanwhile.
    std::vector<uint32_t> launches;
    for (const uint32_t k : enders) {
        index.launches->forEach(k, [&](uint32_t launch) {
            if (t.slices[launch].start > g.gap.start) launches.push_back(launch);
        });
    }
    if (launches.empty()) {
        g.cause = GapCause::Other;
        return;
    }
    g.cause = GapCause::Host;
    g.evidence = launches;
    std::sort(launches.begin(), launches.end(), [&](uint32_t a, uint32_t b) {
        return t.trackOfSlice(a) != t.trackOfSlice(b) ? t.trackOfSlice(a) < t.trackOfSlice(b)
                                                      : a < b;
    });
    uint32_t previousTrack = kNone;
    for (const uint32_t launch : launches) {  // once per launching thread
        if (t.trackOfSlice(launch) == previousTrack) continue;
        previousTrack = t.trackOfSlice(launch);
        hostWork(t, launch, g.gap, g.evidence);
    }
}

}  // namespace

GapExplainer::GapExplainer(const Trace& trace, const LaunchCalls* launches)
    : trace_(trace), index_(std::make_unique<Index>(trace, launches)) {
    indexHost(trace, *index_);
}

GapExplainer::~GapExplainer() = default;

CausedGap GapExplainer::explain(const GpuDevice& device, Interval gap) const {
    const Trace& trace = trace_;
    CausedGap g;
    g.gap = gap;
    g.whole = gap;
    decide(trace, device, *index_, g);
    std::sort(g.evidence.begin(), g.evidence.end(), [&](uint32_t a, uint32_t b) {
        const Slice &x = trace.slices[a], &y = trace.slices[b];
        if (x.start != y.start) return x.start < y.start;
        if (trace.str(x.name) != trace.str(y.name)) return trace.str(x.name) < trace.str(y.name);
        if (x.end() != y.end()) return x.end() < y.end();
        return a < b;  // equal keys: duplicates next to each other
    });
    g.evidence.erase(std::unique(g.evidence.begin(), g.evidence.end()), g.evidence.end());
    return g;
}

std::vector<DeviceGaps> gapsWithCauses(const Trace& trace, const GapOptions& options) {
    std::optional<GapExplainer> own;
    if (!options.index) own.emplace(trace);
    const GapExplainer& explainer = options.index ? options.index->explainer() : *own;
    std::vector<DeviceGaps> out;
    for (const GpuDevice& device : trace.gpuDevices) {
        if (options.cancel && options.cancel->isCancelled()) return {};
        const std::vector<Interval> busy = clippedTo(device.busy, options.window);
        const std::vector<TimeNs> points = pointsWithin(device.instants, options.window);
        if (busy.empty() && points.empty()) continue;
        DeviceGaps d;
        d.device = device.index;
        d.busy = totalLength(busy);
        for (const Interval& gap : gapsBetween(busy, points, 0)) {
            if (gap.length() < options.minGapNs) {
                ++d.shortCount;
                d.shortTotal += gap.length();
                continue;
            }
            CausedGap g = explainer.explain(device, gap);
            d.byCause[static_cast<size_t>(g.cause)] += gap.length();
            d.gaps.push_back(std::move(g));
        }
        out.push_back(std::move(d));
    }
    return out;
}

}  // namespace gapscope
