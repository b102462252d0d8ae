#include "analysis/rank_figures.h"

#include <algorithm>
#include <map>

#include "index/interval_set.h"
#include "model/slice_kind.h"

namespace gapscope {

namespace {

// The device busiest inside the steps (the lower index on a tie); without
// steps, the busiest of the trace.
const GpuDevice* busiestDevice(const Trace& trace, const StepsResult& steps) {
    std::map<int, TimeNs> inSteps;
    for (const StepReport& r : steps.steps)
        for (const StepBreakdown& b : r.devices)
            inSteps[b.device] += b.compute + b.exposedComm + b.exposedMemcpy;
    const GpuDevice* best = nullptr;
    TimeNs bestBusy = 0;
    for (const GpuDevice& d : trace.gpuDevices) {
        const auto it = inSteps.find(d.index);
        const TimeNs busy = steps.steps.empty() ? d.busyNs : it == inSteps.end() ? 0 : it->second;
        if (d.busyNs > 0 && (!best || busy > bestBusy)) {
            best = &d;
            bestBusy = busy;
        }
    }
    return best;
}

Interval clipped(TimeNs start, TimeNs end, Interval window) {
    return {std::max(start, window.start), std::min(end, window.end)};
}

// Keeps `candidate` when it has more time in the window (the earlier on a tie).
void keepLonger(std::optional<RankWork>& best, RankWork candidate) {
    if (candidate.ns() <= 0) return;
    if (!best || candidate.ns() > best->ns() ||
        (candidate.ns() == best->ns() && candidate.span.start < best->span.start))
        best = std::move(candidate);
}

// Every communication kernel starting inside `window` on `device`, by start.
std::vector<uint32_t> collectivesIn(const Trace& trace, const GpuDevice& device, Interval window) {
    std::vector<uint32_t> found;
    forEachActivity(trace, device, window, [&](uint32_t i, const Track&, ActivityKind) {
        const Slice& s = trace.slices[i];
        if (sliceKind(s) == SliceKind::CommKernel && s.start >= window.start) found.push_back(i);
    });
    std::sort(found.begin(), found.end(), [&](uint32_t a, uint32_t b) {
        return trace.slices[a].start != trace.slices[b].start
                   ? trace.slices[a].start < trace.slices[b].start
                   : a < b;
    });
    return found;
}

std::optional<RankWork> longestWork(const Trace& trace, const GpuDevice* device, uint32_t stepSlice,
                                    Interval window) {
    std::optional<RankWork> best;
    if (window.length() <= 0) return best;
    // A GPU busy for at least half of the window was held up by its own
    // work; otherwise it waited for the host.
    if (device && 2 * totalLength(clippedTo(device->busy, window)) >= window.length()) {
        forEachActivity(trace, *device, window, [&](uint32_t i, const Track&, ActivityKind) {
            const Slice& s = trace.slices[i];
            keepLonger(best,
                       {std::string(trace.str(s.name)), true, clipped(s.start, s.end(), window)});
        });
        return best;
    }
    const Track& track = trace.tracks[trace.trackOfSlice(stepSlice)];
    const Row& stepRow = track.rows[trace.slices[stepSlice].row];
    for (const Row& row : track.rows) {
        if (row.lane != stepRow.lane || row.depth != stepRow.depth + 1) continue;
        const auto [lo, hi] = trace.visibleInRow(row, window.start, window.end);
        for (uint32_t i = lo; i < hi; ++i) {
            const Slice& s = trace.slices[i];
            keepLonger(best,
                       {std::string(trace.str(s.name)), false, clipped(s.start, s.end(), window)});
        }
    }
    return best;
}

}  // namespace

void RankStep::pickCollective(size_t i) {
    const RankCollective& c = collectives[i];
    collectiveEnter = c.enter;
    collectiveEnd = c.end;
    collectiveName = c.name;
    longestWorkBefore = c.workBefore;
}

RankFigures rankFigures(const Trace& trace, const RankFigureOptions& options) {
    RankFigures out;
    StepOptions so;
    so.regex = options.stepRegex;
    so.index = options.index;
    so.minGapNs = options.minGapNs;
    so.cancel = options.cancel;
    const StepsResult steps = stepAnalysis(trace, so);
    out.source = steps.source;
    const GpuDevice* device = busiestDevice(trace, steps);
    if (device) out.device = device->index;
    for (const StepReport& r : steps.steps) {
        if (options.cancel && options.cancel->isCancelled()) return {};
        RankStep step;
        step.name = std::string(trace.str(trace.slices[r.step.slice].name));
        step.number = r.step.number;
        step.span = r.step.span;
        const StepBreakdown* b = nullptr;
        for (const StepBreakdown& d : r.devices)
            if (device && d.device == device->index) b = &d;
        if (b) {
            // Over the step's lead-in and GPU window, as the time account.
            const GpuParts parts = b->tileParts();
            step.busy = parts.busy();
            step.idle = parts.idle;
            step.exposedComm = parts.exposedComm;
            step.idleByCause = parts.idleByCause;
            step.idleShort = parts.idleShort;
            const Interval window = b->tile();
            step.comm = totalLength(deviceActivity(trace, *device, window).communication);
            // Each collective's work before it: since the previous ones ended.
            TimeNs from = window.start;
            for (const uint32_t i : collectivesIn(trace, *device, window)) {
                const Slice& s = trace.slices[i];
                const Interval before{from, std::max(from, s.start)};
                step.collectives.push_back({std::string(trace.str(s.name)), s.start, s.end(),
                                            longestWork(trace, device, r.step.slice, before)});
                from = std::max(from, s.end());
            }
        } else {
            step.idle = step.duration();
        }
        if (!step.collectives.empty()) {
            step.pickCollective(0);
        } else {  // the whole window, within the step's GPU window where there is one
            const Interval window = b ? b->tile() : step.span;
            step.longestWorkBefore = longestWork(trace, b ? device : nullptr, r.step.slice, window);
        }
        out.steps.push_back(std::move(step));
    }
    return out;
}

}  // namespace gapscope
