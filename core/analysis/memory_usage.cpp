#include "analysis/memory_usage.h"

#include <algorithm>
#include <map>

#include "model/device_properties.h"

namespace gapscope {

namespace {

// TensorFlow's memory counter: "Memory Usage" with the bytes_in_use and
// bytes_reserved keys, on a GPU process.
MemoryCurve tensorflowCurve(const Trace& t, const CounterSeries& c, int& device) {
    if (c.process >= t.processes.size() || t.processes[c.process].kind != ProcessKind::Gpu)
        return MemoryCurve::None;
    device = t.processes[c.process].gpuDevice;
    const std::string_view name = t.str(c.name);
    if (name == "Memory Usage bytes_in_use") return MemoryCurve::Allocated;
    if (name == "Memory Usage bytes_reserved") return MemoryCurve::Reserved;
    return MemoryCurve::None;
}

double peakOf(const CounterSeries& c, TimeNs* when) {
    double peak = c.values[0];
    if (when) *when = c.ts[0];
    for (size_t i = 1; i < c.values.size(); ++i) {
        if (c.values[i] > peak) {
            peak = c.values[i];
            if (when) *when = c.ts[i];
        }
    }
    return peak;
}

std::optional<double> stepPeak(const CounterSeries& c, Interval step) {
    // The level in effect at the start: the last point at or before it.
    const auto after = std::upper_bound(c.ts.begin(), c.ts.end(), step.start);
    std::optional<double> peak;
    if (after != c.ts.begin()) peak = c.values[static_cast<size_t>(after - c.ts.begin()) - 1];
    for (auto it = std::lower_bound(c.ts.begin(), after, step.start);
         it != c.ts.end() && *it < step.end; ++it) {
        const double v = c.values[static_cast<size_t>(it - c.ts.begin())];
        if (!peak || v > *peak) peak = v;
    }
    return peak;
}

// Least squares over (step index, peak); growth when slope > 0 and R² ≥ 0.9.
void fitGrowth(DeviceMemory& d) {
    std::vector<std::pair<double, double>> xy;
    for (size_t i = 0; i < d.perStepPeak.size(); ++i)
        if (d.perStepPeak[i]) xy.push_back({static_cast<double>(i), *d.perStepPeak[i]});
    if (xy.size() < 4) return;
    const auto n = static_cast<double>(xy.size());
    double mx = 0, my = 0;
    for (const auto& [x, y] : xy)
        mx += x, my += y;
    mx /= n;
    my /= n;
    double sxx = 0, sxy = 0, syy = 0;
    for (const auto& [x, y] : xy) {
        sxx += (x - mx) * (x - mx);
        sxy += (x - mx) * (y - my);
        syy += (y - my) * (y - my);
    }
    if (sxx <= 0 || syy <= 0) return;
    const double slope = sxy / sxx;
    const double r2 = sxy * sxy / (sxx * syy);  // 1 − SSres/SStot for a least-squares line
    if (slope > 0 && r2 >= 0.9) {
        d.growthPerStep = slope;
        d.growthR2 = r2;
    }
}

}  // namespace

MemoryReport memoryUsage(const Trace& t, const std::vector<Step>& steps) {
    MemoryReport out;
    // (host last, device) -> report
    std::map<std::pair<bool, int>, DeviceMemory> byDevice;
    for (uint32_t i = 0; i < t.counters.size(); ++i) {
        const CounterSeries& c = t.counters[i];
        int device = c.memoryDevice;
        MemoryCurve curve = c.memory;
        if (curve == MemoryCurve::None) curve = tensorflowCurve(t, c, device);
        if (curve == MemoryCurve::None || c.values.empty()) {
            out.otherCurves.push_back(i);
            continue;
        }
        DeviceMemory& d = byDevice[{device < 0, device}];
        d.device = device;
        d.gpu = device >= 0;
        (curve == MemoryCurve::Allocated ? d.allocatedSeries : d.reservedSeries) = i;
    }
    const std::map<int, int64_t> sizes = deviceMemoryFromProperties(t);
    for (auto& [key, d] : byDevice) {
        if (d.allocatedSeries == kNone) continue;  // reserved alone: nothing to peak
        const CounterSeries& a = t.counters[d.allocatedSeries];
        d.relative = a.relative;
        d.peakAllocated = peakOf(a, &d.peakTime);
        if (d.reservedSeries != kNone)
            d.peakReserved = peakOf(t.counters[d.reservedSeries], nullptr);
        if (d.gpu) {
            const auto size = sizes.find(d.device);
            if (size != sizes.end() && size->second > 0) {
                d.deviceMemory = size->second;
                d.peakShare = d.peakAllocated / static_cast<double>(size->second);
            }
        }
        for (const Step& s : steps)
            d.perStepPeak.push_back(stepPeak(a, s.span));
        fitGrowth(d);
        out.devices.push_back(std::move(d));
    }
    return out;
}

}  // namespace gapscope
