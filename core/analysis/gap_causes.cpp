#include "analysis/gap_causes.h"

#include <algorithm>
#include <optional>

#include "analysis/analysis_index.h"
#include "analysis/launch_calls.h"

namespace gapscope {

const char* gapCauseName(GapCause cause) {
    switch (cause) {
        case GapCause::Input:
            return "input";
        case GapCause::Synchronization:
            return "synchronization";
        case GapCause::Communication:
            return "communication";
        case GapCause::Launch:
            return "launch";
        case GapCause::Other:
            break;
    }
    return "other";
}

namespace {

enum class HostClass : int8_t { None = 0, Input, Sync, Comm };

HostClass classifyHostName(std::string_view n) {
    auto starts = [&](std::string_view p) { return n.substr(0, p.size()) == p; };
    auto ends = [&](std::string_view p) {
        return n.size() >= p.size() && n.substr(n.size() - p.size()) == p;
    };
    auto has = [&](std::string_view p) { return n.find(p) != std::string_view::npos; };
    if ((has("DataLoader") && has("__next__")) || starts("IteratorGetNext") || starts("Iterator::"))
        return HostClass::Input;
    if (n == "cudaStreamSynchronize" || n == "cudaDeviceSynchronize" ||
        n == "cudaEventSynchronize" || (starts("hip") && ends("Synchronize")) ||
        n == "aten::_local_scalar_dense")
        return HostClass::Sync;
    if (starts("nccl:") || starts("c10d::") || has("ProcessGroupNCCL") || n == "record_param_comms")
        return HostClass::Comm;
    return HostClass::None;
}

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
    std::vector<int8_t> memo(t.strings.size() + 1, -1);
    for (const Track& track : t.tracks) {
        if (track.kind != TrackKind::CpuThread) continue;
        const uint32_t group = t.processes[track.process].group;
        if (group >= index.groups.size()) index.groups.resize(group + 1);
        HostClasses& h = index.groups[group];
        for (uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i) {
            const Slice& s = t.slices[i];
            if (s.name < memo.size() && memo[s.name] < 0)
                memo[s.name] = static_cast<int8_t>(classifyHostName(t.str(s.name)));
            const auto c = static_cast<HostClass>(s.name < memo.size() ? memo[s.name] : 0);
            HostClassSlices* into = c == HostClass::Input  ? &h.input
                                    : c == HostClass::Sync ? &h.sync
                                    : c == HostClass::Comm ? &h.comm
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
    if (coversHalf(host.sync, g.gap)) {
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
    for (const uint32_t k : enders) {
        const Track& track = t.tracks[t.trackOfSlice(k)];
        if (activityClass(activityKind(t, track, t.slices[k]), t.str(t.slices[k].name)) ==
            ActivityClass::Communication)
            commKernels.push_back(k);
    }
    if (!commKernels.empty() || coversHalf(host.comm, g.gap)) {
        g.cause = GapCause::Communication;
        g.evidence = commKernels;
        overlapping(t, host.comm, g.gap, g.evidence);
        return;
    }
    // Each ender's launch call: by correlation id, else by its ac2g flow.
    for (const uint32_t k : enders) {
        index.launches->forEach(k, [&](uint32_t launch) {
            if (t.slices[launch].start > g.gap.start) g.evidence.push_back(launch);
        });
    }
    g.cause = g.evidence.empty() ? GapCause::Other : GapCause::Launch;
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
    decide(trace, device, *index_, g);
    std::sort(g.evidence.begin(), g.evidence.end(), [&](uint32_t a, uint32_t b) {
        const Slice &x = trace.slices[a], &y = trace.slices[b];
        if (x.start != y.start) return x.start < y.start;
        if (trace.str(x.name) != trace.str(y.name)) return trace.str(x.name) < trace.str(y.name);
        return x.end() < y.end();
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
        if (busy.empty()) continue;
        DeviceGaps d;
        d.device = device.index;
        d.busy = totalLength(busy);
        for (const Interval& gap : gapsBetween(busy, 0)) {
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
