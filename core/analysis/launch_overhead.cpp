#include "analysis/launch_overhead.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "analysis/analysis_index.h"
#include "analysis/launch_calls.h"

namespace gapscope {

namespace {

LaunchOverhead computeLaunchOverhead(const Trace& t, Interval window, const AnalysisIndex* index,
                                     const CancelToken* cancel) {
    LaunchOverhead out;
    std::optional<LaunchCalls> own;
    if (!index) own.emplace(t);
    const LaunchCalls& calls = index ? index->launches() : *own;
    std::vector<TimeNs> delays, launches;
    struct Acc {
        uint64_t count = 0;
        TimeNs delay = 0, launch = 0, maxDelay = 0;
    };
    std::unordered_map<StringId, Acc> byName;
    TimeNs kernelTime = 0;
    for (const GpuDevice& device : t.gpuDevices) {
        if (cancel && cancel->isCancelled()) return {};
        forEachActivity(t, device, window, [&](uint32_t k, const Track&, ActivityKind kind) {
            const Slice& s = t.slices[k];
            if (kind != ActivityKind::Kernel || s.start < window.start) return;
            ++out.kernels;
            kernelTime += s.dur;
            if (s.dur < kShortKernelNs) {
                ++out.shortKernels;
                out.shortTime += s.dur;
            }
            const uint32_t call = calls.first(k);
            if (call == kNone) return;
            const Slice& l = t.slices[call];
            const TimeNs delay = std::max<TimeNs>(0, s.start - l.end());
            delays.push_back(delay);
            launches.push_back(l.dur);
            size_t bucket = kDelayBuckets - 1;
            while (bucket > 0 && delay < kDelayBucketStart[bucket])
                --bucket;
            ++out.histogram[bucket];
            Acc& a = byName[s.name];
            ++a.count;
            a.delay += delay;
            a.launch += l.dur;
            a.maxDelay = std::max(a.maxDelay, delay);
        });
    }
    out.kernelsWithLaunch = delays.size();
    out.delay = distributionOf(delays);
    out.launch = distributionOf(launches);
    if (out.kernels > 0) {
        out.shortShare = static_cast<double>(out.shortKernels) / static_cast<double>(out.kernels);
        if (kernelTime > 0)
            out.shortTimeShare =
                static_cast<double>(out.shortTime) / static_cast<double>(kernelTime);
    }
    for (const auto& [name, a] : byName) {
        KernelLaunchDelay d;
        d.name = name;
        d.count = a.count;
        d.meanDelay = static_cast<double>(a.delay) / static_cast<double>(a.count);
        d.meanLaunch = static_cast<double>(a.launch) / static_cast<double>(a.count);
        d.maxDelay = a.maxDelay;
        out.byName.push_back(d);
    }
    std::sort(out.byName.begin(), out.byName.end(), [&](const auto& a, const auto& b) {
        if (a.meanDelay != b.meanDelay) return a.meanDelay > b.meanDelay;
        return t.str(a.name) < t.str(b.name);
    });
    return out;
}

}  // namespace

LaunchOverhead launchOverhead(const Trace& t, Interval window, const AnalysisIndex* index,
                              const CancelToken* cancel) {
    if (!index) return computeLaunchOverhead(t, window, nullptr, cancel);
    // The advice's inputs and the launch analysis ask for the same window.
    return *index->rememberedOf<LaunchOverhead>(
        AnalysisIndex::kRememberedLaunch, window, cancel,
        [&] { return computeLaunchOverhead(t, window, index, cancel); });
}

}  // namespace gapscope
