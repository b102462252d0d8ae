#include "analysis/op_stats.h"

#include <algorithm>
#include <unordered_map>

#include "analysis/analysis_index.h"
#include "analysis/launch_calls.h"
#include "analysis/slice_queries.h"
#include "model/vocabulary/vocabulary.h"

namespace gapscope {

namespace {

bool inWindow(const Slice& s, Interval w) {
    return s.start >= w.start && s.start < w.end;
}

// The part `s` starts in (parts by start, not overlapping), or none.
std::optional<size_t> partOf(const std::vector<Interval>& parts, const Slice& s) {
    auto it = std::upper_bound(parts.begin(), parts.end(), s.start,
                               [](TimeNs t, const Interval& p) { return t < p.start; });
    if (it == parts.begin()) return std::nullopt;
    --it;
    if (s.start >= it->end) return std::nullopt;
    return static_cast<size_t>(it - parts.begin());
}

}  // namespace

std::vector<OpStats> opStats(const Trace& t, const OpStatsOptions& options) {
    std::unordered_map<StringId, OpStats> byName;
    auto isOp = [](const Slice& s) { return isCpuOp(s); };
    const std::vector<Interval>& parts = options.parts;
    auto stats = [&](StringId name) -> OpStats& {
        OpStats& o = byName[name];
        if (o.selfPerPart.size() != parts.size()) {
            o.selfPerPart.resize(parts.size());
            o.gpuPerPart.resize(parts.size());
        }
        return o;
    };
    auto add = [&](const Slice& s) -> OpStats& {
        OpStats& o = stats(s.name);
        o.name = s.name;
        ++o.count;
        o.inclusive += s.dur;
        return o;
    };
    // Adds to a part's figure when parts are asked for.
    auto toPart = [&](std::vector<TimeNs>& perPart, const Slice& s, TimeNs v) {
        if (parts.empty()) return;
        if (const auto k = partOf(parts, s)) perPart[*k] += v;
    };
    const Interval w = options.window;
    TimeNs lastOpEnd = w.start;  // launch calls inside the window's ops end by then
    for (const Track& track : t.tracks) {
        if (options.cancel && options.cancel->isCancelled()) return {};
        const bool tfOps = track.kind == TrackKind::GpuOther &&
                           vocabulary::isTensorflowOpsLine(t.str(track.threadName));
        if (track.kind != TrackKind::CpuThread && !tfOps) continue;
        for (const Row& row : track.rows) {
            const auto [lo, hi] = t.visibleInRow(row, w.start, w.end);
            std::vector<TimeNs> children;  // of [lo, hi), once the row has an op
            for (uint32_t i = lo; i < hi; ++i) {
                const Slice& s = t.slices[i];
                if (!inWindow(s, w)) continue;
                if (tfOps) {
                    OpStats& o = add(s);
                    o.self += s.dur;
                    o.gpu += s.dur;
                    toPart(o.selfPerPart, s, s.dur);
                    toPart(o.gpuPerPart, s, s.dur);
                } else if (isOp(s)) {
                    if (children.empty()) children = childTimes(t, track, row, lo, hi);
                    const TimeNs self = std::max<TimeNs>(0, s.dur - children[i - lo]);
                    OpStats& o = add(s);
                    o.self += self;
                    toPart(o.selfPerPart, s, self);
                    lastOpEnd = std::max(lastOpEnd, s.end());
                }
            }
        }
    }
    // GPU time: each activity's duration to every op around its launch call.
    auto credit = [&](const EnclosingSlices& enclosing, uint32_t call, uint32_t activity) {
        enclosing.forEach(call, [&](uint32_t op) {
            const Slice& s = t.slices[op];
            if (!inWindow(s, w) || !isOp(s)) return;
            OpStats& o = stats(s.name);
            o.gpu += t.slices[activity].dur;
            toPart(o.gpuPerPart, s, t.slices[activity].dur);
        });
    };
    if (options.index) {
        // Only the launch calls that can lie inside the window's ops.
        const AnalysisIndex& index = *options.index;
        for (const Track& track : t.tracks) {
            if (track.kind != TrackKind::CpuThread) continue;
            if (options.cancel && options.cancel->isCancelled()) return {};
            for (const Row& row : track.rows) {
                const auto [lo, hi] = t.visibleInRow(row, w.start, lastOpEnd);
                for (uint32_t i = lo; i < hi; ++i)  // any category: ac2g flows bind any slice
                    index.forEachLaunched(i, [&](uint32_t k) { credit(index.enclosing(), i, k); });
            }
        }
    } else {
        const LaunchCalls calls(t);
        const EnclosingSlices enclosing(t);
        for (const GpuDevice& device : t.gpuDevices) {
            if (options.cancel && options.cancel->isCancelled()) return {};
            forEachActivity(t, device, kWholeTrace, [&](uint32_t k, const Track&, ActivityKind) {
                const uint32_t call = calls.first(k);
                if (call != kNone) credit(enclosing, call, k);
            });
        }
    }
    std::vector<OpStats> out;
    out.reserve(byName.size());
    for (auto& [name, o] : byName) {
        if (options.stepTime > 0)
            o.shareOfStepTime =
                static_cast<double>(o.inclusive) / static_cast<double>(options.stepTime);
        out.push_back(o);
    }
    std::sort(out.begin(), out.end(), [&](const OpStats& a, const OpStats& b) {
        if (a.gpu != b.gpu) return a.gpu > b.gpu;
        if (a.self != b.self) return a.self > b.self;
        return t.str(a.name) < t.str(b.name);
    });
    return out;
}

}  // namespace gapscope
