#include "analysis/gpu_time_account.h"

#include <map>

#include "analysis/gpu_utilization.h"

namespace gapscope {

const char* denominatorName(Denominator d) {
    return d == Denominator::StepTime ? "step time" : "active span";
}

TimeNs TimeAccount::time() const {
    TimeNs sum = 0;
    for (const GpuTimeAccount& d : devices)
        sum += d.time;
    return sum;
}

TimeNs TimeAccount::idle(GapCause cause) const {
    TimeNs sum = 0;
    for (const GpuTimeAccount& d : devices)
        sum += d.idleByCause[static_cast<size_t>(cause)];
    return sum;
}

TimeAccount timeAccount(const StepsResult& steps, const std::vector<GpuTimeBreakdown>& breakdowns,
                        const std::vector<DeviceGaps>& gaps) {
    TimeAccount out;
    std::map<int, GpuTimeAccount> byDevice;
    for (const StepReport& r : steps.steps) {
        for (const StepBreakdown& b : r.devices) {
            GpuTimeAccount& d = byDevice[b.device];
            d.device = b.device;
            const Interval w = b.gpuWindow.value_or(r.step.span);
            d.time += w.length();
            d.windows.push_back(w);
            d.computation += b.compute;
            d.exposedComm += b.exposedComm;
            d.exposedMemcpy += b.exposedMemcpy;
            for (size_t c = 0; c < kGapCauseCount; ++c)
                d.idleByCause[c] += b.idleByCause[c];
            d.idleShort += b.idleShort;
        }
    }
    if (!byDevice.empty()) {
        out.denominator = Denominator::StepTime;
        out.steps = steps.steps.size();
    } else {
        for (const GpuTimeBreakdown& b : breakdowns) {
            if (!b.activeSpan) continue;
            GpuTimeAccount& d = byDevice[b.device];
            d.device = b.device;
            d.time = b.total;
            d.windows = {*b.activeSpan};
            d.computation = b.computation;
            d.exposedComm = b.exposedComm;
            d.exposedMemcpy = b.exposedMemcpy;
            for (const DeviceGaps& g : gaps) {
                if (g.device != b.device) continue;
                d.idleByCause = g.byCause;
                d.idleShort = g.shortTotal;
            }
        }
    }
    for (auto& [device, d] : byDevice)
        out.devices.push_back(d);
    return out;
}

std::optional<BusyShare> busyShare(const GpuDevice& device, const std::vector<Interval>& windows) {
    const std::optional<Interval> active = activeSpan(device);
    if (!active) return std::nullopt;
    TimeNs busy = 0, time = 0;
    for (const Interval& w : windows) {
        busy += lengthWithin(device.busy, w);
        time += w.length();
    }
    if (windows.empty()) {
        busy = device.busyNs;
        time = active->length();
    }
    if (time <= 0) return std::nullopt;
    return BusyShare{static_cast<double>(busy) / static_cast<double>(time),
                     windows.empty() ? Denominator::ActiveSpan : Denominator::StepTime};
}

TimeAccount timeAccountOf(const Trace& trace, const StepOptions& options) {
    const StepsResult steps = stepAnalysis(trace, options);
    if (!steps.steps.empty() && !steps.steps.front().devices.empty())
        return timeAccount(steps, {}, {});
    GapOptions go;
    go.window = options.window;
    go.minGapNs = options.minGapNs;
    go.index = options.index;
    go.cancel = options.cancel;
    return timeAccount({}, timeBreakdowns(trace, options.window), gapsWithCauses(trace, go));
}

}  // namespace gapscope
