#include "analysis/op_stats.h"

#include <algorithm>
#include <unordered_map>

#include "analysis/launch_calls.h"
#include "analysis/slice_queries.h"

namespace gapscope {

namespace {

bool inWindow(const Slice& s, Interval w) {
    return s.start >= w.start && s.start < w.end;
}

}  // namespace

std::vector<OpStats> opStats(const Trace& t, const OpStatsOptions& options) {
    std::unordered_map<StringId, OpStats> byName;
    std::vector<int8_t> isOpName(t.strings.size() + 1, -1);
    auto isOp = [&](const Slice& s) {
        if (s.name >= isOpName.size()) return isCpuOp(t, s);
        // cat and name together decide; the name memo only skips ProfilerStep checks.
        const std::string_view cat = t.categoryName(s.category);
        if (cat != "cpu_op" && cat != "Operator") return false;
        if (isOpName[s.name] < 0) isOpName[s.name] = isCpuOp(t, s);
        return isOpName[s.name] == 1;
    };
    auto add = [&](const Slice& s) -> OpStats& {
        OpStats& o = byName[s.name];
        o.name = s.name;
        ++o.count;
        o.inclusive += s.dur;
        return o;
    };
    for (const Track& track : t.tracks) {
        if (options.cancel && options.cancel->isCancelled()) return {};
        const bool tfOps =
            track.kind == TrackKind::GpuOther && t.str(track.threadName) == "TensorFlow Ops";
        if (track.kind != TrackKind::CpuThread && !tfOps) continue;
        for (uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i) {
            const Slice& s = t.slices[i];
            if (!inWindow(s, options.window)) continue;
            if (tfOps) {
                OpStats& o = add(s);
                o.self += s.dur;
                o.gpu += s.dur;
            } else if (isOp(s)) {
                add(s).self += selfTime(t, i);
            }
        }
    }
    // GPU time: each activity's duration to every op around its launch call.
    const LaunchCalls calls(t);
    const EnclosingSlices enclosing(t);
    for (const GpuDevice& device : t.gpuDevices) {
        if (options.cancel && options.cancel->isCancelled()) return {};
        forEachActivity(t, device, kWholeTrace, [&](uint32_t k, const Track&, ActivityKind) {
            const uint32_t call = calls.first(k);
            if (call == kNone) return;
            enclosing.forEach(call, [&](uint32_t op) {
                const Slice& s = t.slices[op];
                if (!inWindow(s, options.window) || !isOp(s)) return;
                byName[s.name].gpu += t.slices[k].dur;
            });
        });
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
