#include "analysis/memory_usage.h"

#include <algorithm>
#include <map>
#include <optional>

#include "model/device_properties.h"
#include "model/vocabulary/vocabulary.h"

namespace gapscope {

namespace {

// TensorFlow's memory counter: "Memory Usage" with the bytes_in_use and
// bytes_reserved keys, on a GPU process.
MemoryCurve tensorflowCurve(const Trace& t, const CounterSeries& c, int& device) {
    if (c.process >= t.processes.size() || t.processes[c.process].kind != ProcessKind::Gpu)
        return MemoryCurve::None;
    device = t.processes[c.process].gpuDevice;
    return vocabulary::tensorflowMemoryCurve(t.str(c.name));
}

// One curve of a device: the points of every series that gives it (several
// processes may report the same device), in time order.
struct Curve {
    std::vector<TimeNs> ts;
    std::vector<double> values;
    bool relative = false;
    bool kineto = false;
};

void addSeries(Curve& curve, const CounterSeries& c, bool kineto) {
    if (curve.kineto && !kineto) return;  // Kineto's [memory] wins over TensorFlow's counters
    if (kineto && !curve.kineto) curve = Curve{};
    curve.kineto = kineto;
    curve.relative = c.relative;
    std::vector<std::pair<TimeNs, double>> points;
    points.reserve(curve.ts.size() + c.ts.size());
    for (size_t i = 0; i < curve.ts.size(); ++i)
        points.push_back({curve.ts[i], curve.values[i]});
    for (size_t i = 0; i < c.ts.size(); ++i)
        points.push_back({c.ts[i], c.values[i]});
    std::stable_sort(points.begin(), points.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    curve.ts.clear();
    curve.values.clear();
    for (const auto& [t, v] : points) {
        curve.ts.push_back(t);
        curve.values.push_back(v);
    }
}

double peakOf(const Curve& c, TimeNs* when) {
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

std::optional<double> stepPeak(const Curve& c, Interval step) {
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

namespace {

// A process that sees one GPU numbers it 0 in its memory records (its own
// device ordinal) while its work may sit on GPU 2 (ROCm and Kineto name the
// GPU by its place in the machine): with exactly one GPU, and every GPU
// memory curve on one other device number that no GPU has, the curves are
// that GPU's.
std::optional<std::pair<int, int>> loneGpuMemory(const Trace& t) {
    if (t.gpuDevices.size() != 1) return std::nullopt;
    std::optional<int> named;
    for (const CounterSeries& c : t.counters) {
        if (c.memory == MemoryCurve::None || c.memoryDevice < 0) continue;
        if (named && *named != c.memoryDevice) return std::nullopt;
        named = c.memoryDevice;
    }
    if (!named || *named == t.gpuDevices.front().index) return std::nullopt;
    return std::pair{*named, t.gpuDevices.front().index};
}

}  // namespace

MemoryReport memoryUsage(const Trace& t, const std::vector<Step>& steps) {
    MemoryReport out;
    const auto lone = loneGpuMemory(t);
    // (host last, device) -> report, with its allocated and reserved curves
    std::map<std::pair<bool, int>, DeviceMemory> byDevice;
    std::map<std::pair<bool, int>, Curve> allocated, reserved;
    for (uint32_t i = 0; i < t.counters.size(); ++i) {
        const CounterSeries& c = t.counters[i];
        int device = c.memoryDevice;
        MemoryCurve curve = c.memory;
        const bool kineto = curve != MemoryCurve::None;
        if (kineto && lone && device == lone->first) device = lone->second;
        if (!kineto) curve = tensorflowCurve(t, c, device);
        if (curve == MemoryCurve::None || c.values.empty()) {
            out.otherCurves.push_back(i);
            continue;
        }
        const std::pair<bool, int> key{device < 0, device};
        DeviceMemory& d = byDevice[key];
        d.device = device;
        d.gpu = device >= 0;
        if (curve == MemoryCurve::Allocated) {
            addSeries(allocated[key], c, kineto);
            if (d.allocatedSeries == kNone || kineto) d.allocatedSeries = i;
        } else {
            addSeries(reserved[key], c, kineto);
            if (d.reservedSeries == kNone || kineto) d.reservedSeries = i;
        }
    }
    const std::map<int, int64_t> sizes = deviceMemoryFromProperties(t);
    for (auto& [key, d] : byDevice) {
        const auto a = allocated.find(key);
        if (a == allocated.end()) continue;  // reserved alone: nothing to peak
        d.relative = a->second.relative;
        d.peakAllocated = peakOf(a->second, &d.peakTime);
        const auto r = reserved.find(key);
        if (r != reserved.end()) d.peakReserved = peakOf(r->second, nullptr);
        if (d.gpu) {
            const std::optional<int64_t> size = propertyOfDevice(sizes, d.device);
            if (size && *size > 0) {
                d.deviceMemory = *size;
                d.peakShare = d.peakAllocated / static_cast<double>(*size);
            }
        }
        for (const Step& s : steps)
            d.perStepPeak.push_back(stepPeak(a->second, s.span));
        fitGrowth(d);
        out.devices.push_back(std::move(d));
    }
    return out;
}

}  // namespace gapscope
