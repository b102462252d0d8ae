#include "analysis/kernel_stats.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "analysis/analysis_index.h"
#include "analysis/distribution.h"
#include "analysis/launch_calls.h"
#include "analysis/slice_queries.h"
#include "model/slice_kind.h"

namespace gapscope {

namespace {

struct Acc {
    std::vector<TimeNs> durations;
    std::vector<uint32_t> tracks;
    uint32_t first = kNone;                  // the earliest kernel
    std::map<StringId, uint64_t> launchers;  // innermost CPU op -> kernels
};

// The innermost CPU op around the first launch call of a kernel.
std::optional<StringId> launchingOp(const Trace& trace, const LaunchCalls& calls,
                                    const EnclosingSlices& enclosing, uint32_t kernel) {
    const uint32_t call = calls.first(kernel);
    if (call == kNone) return std::nullopt;
    std::optional<StringId> op;
    enclosing.forEach(call, [&](uint32_t s) {
        if (!op && isCpuOp(trace.slices[s])) op = trace.slices[s].name;
    });
    return op;
}

KernelStats finish(const Trace& trace, StringId name, int device, Acc& acc) {
    KernelStats k;
    k.name = name;
    k.device = device;
    const Distribution d = distributionOf(acc.durations);
    k.count = d.count;
    k.total = d.total;
    k.min = d.min;
    k.max = d.max;
    k.median = d.median;
    k.p95 = d.p95;
    k.mean = d.mean;
    k.stddev = d.stddev;
    for (const uint32_t t : acc.tracks)
        k.streams.push_back(trackLabel(trace, t));
    const std::string_view text = trace.str(name);
    k.communication =
        acc.first != kNone && sliceKind(trace.slices[acc.first]) == SliceKind::CommKernel;
    k.tensorCores = tensorCoreUse(text);
    k.firstSlice = acc.first;
    if (acc.first != kNone) {
        const auto x = trace.extractedArgs(trace.slices[acc.first].args);
        if (x && hasLaunchParams(*x)) k.launch = launchParamsOf(*x);
    }
    uint64_t most = 0;
    for (const auto& [op, count] : acc.launchers) {  // ties: the smallest name
        if (count > most || (count == most && trace.str(op) < trace.str(*k.launchedBy))) {
            most = count;
            k.launchedBy = op;
        }
    }
    return k;
}

}  // namespace

namespace {

std::vector<KernelStats> computeKernelStats(const Trace& trace, const KernelStatsOptions& options) {
    // (device or -1, name) -> durations; a hash map, as this runs per
    // kernel (the result is sorted by a total order below).
    std::unordered_map<uint64_t, Acc> byKey;
    auto keyOf = [](int device, StringId name) {
        return (uint64_t{static_cast<uint32_t>(device)} << 32) | name;
    };
    std::map<int, TimeNs> kernelTime, busyTime;
    std::optional<LaunchCalls> ownCalls;
    std::optional<EnclosingSlices> ownEnclosing;
    const LaunchCalls* calls = nullptr;
    const EnclosingSlices* enclosing = nullptr;
    if (options.launchers && options.index) {
        calls = &options.index->launches();
        enclosing = &options.index->enclosing();
    } else if (options.launchers) {
        calls = &ownCalls.emplace(trace);
        enclosing = &ownEnclosing.emplace(trace);
    }
    for (const GpuDevice& device : trace.gpuDevices) {
        if (options.cancel && options.cancel->isCancelled()) return {};
        const int key = options.byDevice ? device.index : -1;
        busyTime[key] += lengthWithin(device.busy, options.window);
        TimeNs& deviceKernelTime = kernelTime[key];
        forEachActivity(
            trace, device, options.window, [&](uint32_t i, const Track& track, ActivityKind kind) {
                const Slice& s = trace.slices[i];
                if (kind != ActivityKind::Kernel || s.start < options.window.start) return;
                Acc& acc = byKey[keyOf(key, s.name)];
                acc.durations.push_back(s.dur);
                const auto tr = static_cast<uint32_t>(&track - trace.tracks.data());
                if (std::find(acc.tracks.begin(), acc.tracks.end(), tr) == acc.tracks.end())
                    acc.tracks.push_back(tr);
                if (acc.first == kNone || s.start < trace.slices[acc.first].start) acc.first = i;
                if (calls) {
                    if (const auto op = launchingOp(trace, *calls, *enclosing, i))
                        ++acc.launchers[*op];
                }
                deviceKernelTime += s.dur;
            });
    }
    std::vector<KernelStats> out;
    out.reserve(byKey.size());
    for (auto& [key, acc] : byKey) {
        const auto device = static_cast<int>(static_cast<uint32_t>(key >> 32));
        KernelStats k = finish(trace, static_cast<StringId>(key), device, acc);
        const TimeNs kt = kernelTime[device], bt = busyTime[device];
        k.shareOfKernelTime = kt > 0 ? static_cast<double>(k.total) / static_cast<double>(kt) : 0;
        k.shareOfBusyTime = bt > 0 ? static_cast<double>(k.total) / static_cast<double>(bt) : 0;
        out.push_back(std::move(k));
    }
    std::sort(out.begin(), out.end(), [&](const KernelStats& a, const KernelStats& b) {
        if (a.total != b.total) return a.total > b.total;
        if (a.device != b.device) return a.device < b.device;
        return trace.str(a.name) < trace.str(b.name);
    });
    return out;
}

}  // namespace

std::vector<KernelStats> kernelStats(const Trace& trace, const KernelStatsOptions& options) {
    if (!options.index) return computeKernelStats(trace, options);
    // The advice's inputs and the kernels analysis ask for the same window.
    const int kind = AnalysisIndex::kRememberedKernels + (options.launchers ? 1 : 0) +
                     (options.byDevice ? 2 : 0);
    return *options.index->rememberedOf<std::vector<KernelStats>>(
        kind, options.window, options.cancel, [&] { return computeKernelStats(trace, options); });
}

}  // namespace gapscope
