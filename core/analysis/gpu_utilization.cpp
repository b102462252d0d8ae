#include "analysis/gpu_utilization.h"

#include <algorithm>

namespace gapscope {

std::optional<Interval> activeSpan(const GpuDevice& device) {
    const auto& b = device.busy;
    const auto& p = device.instants;
    if (b.empty() && p.empty()) return std::nullopt;
    if (p.empty()) return Interval{b.front().start, b.back().end};
    if (b.empty()) return Interval{p.front(), p.back()};
    return Interval{std::min(b.front().start, p.front()), std::max(b.back().end, p.back())};
}

std::optional<double> busyPercentOfActiveSpan(const GpuDevice& device) {
    const std::optional<Interval> span = activeSpan(device);
    if (!span || span->length() <= 0) return std::nullopt;
    return 100.0 * static_cast<double>(device.busyNs) / static_cast<double>(span->length());
}

std::optional<double> busyShareWithin(const GpuDevice& device, Interval window) {
    if (window.length() <= 0) return std::nullopt;
    return static_cast<double>(lengthWithin(device.busy, window)) /
           static_cast<double>(window.length());
}

std::vector<double> utilizationBins(const GpuDevice& device, Interval window, int bins) {
    std::vector<double> out(static_cast<size_t>(std::max(0, bins)), 0.0);
    if (bins <= 0 || window.length() <= 0) return out;
    // Work in ns relative to the window so that epoch-scale times keep
    // their precision; each busy interval adds its overlap with every bin.
    const double binNs = static_cast<double>(window.length()) / bins;
    for (size_t k = firstEndingAfter(device.busy, window.start);
         k < device.busy.size() && device.busy[k].start < window.end; ++k) {
        const Interval& b = device.busy[k];
        const double a =
            static_cast<double>(std::max(b.start, window.start) - window.start) / binNs;
        const double e = static_cast<double>(std::min(b.end, window.end) - window.start) / binNs;
        for (int i = static_cast<int>(a); i < bins && i <= static_cast<int>(e); ++i) {
            const double overlap = std::min<double>(e, i + 1) - std::max<double>(a, i);
            if (overlap > 0) out[static_cast<size_t>(i)] += overlap;
        }
    }
    return out;
}

}  // namespace gapscope
