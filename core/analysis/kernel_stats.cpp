#include "analysis/kernel_stats.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace gapscope {

bool usesTensorCores(std::string_view name) {
    // TensorBoard's profiler (kernel_stats_utils.cc, IsKernelUsingTensorCore):
    // a case-sensitive substring match on these. Added here, for kernels
    // that list predates: Hopper's wgmma, CUTLASS's tensorop, any xmma.
    static constexpr std::string_view kMarks[] = {"16816",
                                                  "c1688",
                                                  "conv1x1",
                                                  "conv2d_c1_k1",
                                                  "dgrad_1x1_stride_2x2",
                                                  "direct_group",
                                                  "first_layer_wgrad_kernel",
                                                  "h1688",
                                                  "h884",
                                                  "hmma",
                                                  "i16832",
                                                  "i8816",
                                                  "s884",
                                                  "s1688",
                                                  "xmma",
                                                  "wgmma",
                                                  "tensorop"};
    return std::any_of(std::begin(kMarks), std::end(kMarks),
                       [&](std::string_view m) { return name.find(m) != std::string_view::npos; });
}

namespace {

struct Acc {
    std::vector<TimeNs> durations;
    std::vector<uint32_t> tracks;
};

KernelStats finish(const Trace& trace, StringId name, int device, Acc& acc) {
    KernelStats k;
    k.name = name;
    k.device = device;
    std::vector<TimeNs>& d = acc.durations;
    std::sort(d.begin(), d.end());
    k.count = d.size();
    for (const TimeNs x : d)
        k.total += x;
    k.min = d.front();
    k.max = d.back();
    const size_t n = d.size();
    k.median = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;  // both >= 0: floor
    k.p95 = d[static_cast<size_t>(std::ceil(0.95 * static_cast<double>(n))) - 1];
    k.mean = static_cast<double>(k.total) / static_cast<double>(n);
    if (n > 1) {
        double sq = 0;
        for (const TimeNs x : d)
            sq += (static_cast<double>(x) - k.mean) * (static_cast<double>(x) - k.mean);
        k.stddev = std::sqrt(sq / static_cast<double>(n - 1));
    }
    for (const uint32_t t : acc.tracks)
        k.streams.push_back(trace.tracks[t].displayName);
    const std::string_view text = trace.str(name);
    k.communication = isCommunicationKernel(text);
    k.tensorCores = usesTensorCores(text);
    return k;
}

}  // namespace

std::vector<KernelStats> kernelStats(const Trace& trace, const KernelStatsOptions& options) {
    // (device or -1, name) -> durations; map keeps a deterministic order.
    std::map<std::pair<int, StringId>, Acc> byKey;
    std::map<int, TimeNs> kernelTime, busyTime;
    for (const GpuDevice& device : trace.gpuDevices) {
        if (options.cancel && options.cancel->isCancelled()) return {};
        const int key = options.byDevice ? device.index : -1;
        busyTime[key] += lengthWithin(device.busy, options.window);
        forEachActivity(
            trace, device, options.window, [&](uint32_t i, const Track& track, ActivityKind kind) {
                const Slice& s = trace.slices[i];
                if (kind != ActivityKind::Kernel || s.start < options.window.start) return;
                Acc& acc = byKey[{key, s.name}];
                acc.durations.push_back(s.dur);
                const auto tr = static_cast<uint32_t>(&track - trace.tracks.data());
                if (std::find(acc.tracks.begin(), acc.tracks.end(), tr) == acc.tracks.end())
                    acc.tracks.push_back(tr);
                kernelTime[key] += s.dur;
            });
    }
    std::vector<KernelStats> out;
    out.reserve(byKey.size());
    for (auto& [key, acc] : byKey) {
        KernelStats k = finish(trace, key.second, key.first, acc);
        const TimeNs kt = kernelTime[key.first], bt = busyTime[key.first];
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

}  // namespace gapscope
