#include "analysis/gpu_time_account.h"

#include <algorithm>
#include <map>
#include <set>

#include "analysis/analysis_index.h"
#include "analysis/gpu_utilization.h"

namespace gapscope {

const char* denominatorName(Denominator d) {
    switch (d) {
        case Denominator::StepTime:
            return "step time";
        case Denominator::ActiveSpan:
            return "active span";
        case Denominator::Mixed:
            break;
    }
    return "step time and active spans";
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

bool TimeAccount::mixed() const {
    return std::any_of(devices.begin(), devices.end(), [&](const GpuTimeAccount& d) {
        return d.denominator != devices.front().denominator;
    });
}

namespace {

void addParts(GpuTimeAccount& d, const GpuParts& p) {
    d.computation += p.compute;
    d.exposedComm += p.exposedComm;
    d.exposedMemcpy += p.exposedMemcpy;
    for (size_t c = 0; c < kGapCauseCount; ++c)
        d.idleByCause[c] += p.idleByCause[c];
    d.idleShort += p.idleShort;
    d.shortGaps += p.shortGaps;
}

// A step's idle pieces onto the device's gaps: the pieces of one gap that
// steps split are joined again.
void addPieces(std::vector<CausedGap>& gaps, const std::vector<CausedGap>& pieces) {
    for (const CausedGap& piece : pieces) {
        if (!gaps.empty() && gaps.back().whole == piece.whole &&
            gaps.back().gap.end == piece.gap.start) {
            gaps.back().gap.end = piece.gap.end;
            continue;
        }
        gaps.push_back(piece);
    }
}

}  // namespace

TimeAccount timeAccount(const StepsResult& steps, const std::vector<GpuTimeBreakdown>& breakdowns,
                        const std::vector<DeviceGaps>& gaps) {
    TimeAccount out;
    std::map<int, GpuTimeAccount> byDevice;
    for (const StepReport& r : steps.steps) {
        for (const StepBreakdown& b : r.devices) {
            GpuTimeAccount& d = byDevice[b.device];
            d.device = b.device;
            d.denominator = Denominator::StepTime;
            ++d.steps;
            d.time += b.tile().length();
            if (b.tile().length() > 0) d.windows.push_back(b.tile());
            addParts(d, b);
            addParts(d, b.leadInParts);
            addPieces(d.gaps, b.idlePieces);
        }
    }
    if (!byDevice.empty()) {
        out.denominator = Denominator::StepTime;
        out.steps = steps.steps.size();
    }
    for (const GpuTimeBreakdown& b : breakdowns) {
        if (!b.activeSpan || byDevice.count(b.device)) continue;
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
            d.shortGaps = g.shortCount;
            d.gaps = g.gaps;
        }
    }
    for (auto& [device, d] : byDevice)
        out.devices.push_back(d);
    return out;
}

std::vector<DeviceGaps> accountGaps(const TimeAccount& account) {
    std::vector<DeviceGaps> out;
    for (const GpuTimeAccount& a : account.devices) {
        DeviceGaps d;
        d.device = a.device;
        d.busy = a.busy();
        d.gaps = a.gaps;
        d.byCause = a.idleByCause;
        d.shortCount = a.shortGaps;
        d.shortTotal = a.idleShort;
        out.push_back(std::move(d));
    }
    return out;
}

namespace {

TimeAccount computeTimeAccountOf(const Trace& trace, const StepOptions& options) {
    const StepsResult steps = stepAnalysis(trace, options);
    // Devices without steps in the scope are over their active span in it.
    std::set<int> counted;
    for (const StepReport& r : steps.steps)
        for (const StepBreakdown& b : r.devices)
            counted.insert(b.device);
    const bool others =
        std::any_of(trace.gpuDevices.begin(), trace.gpuDevices.end(), [&](const GpuDevice& d) {
            return !counted.count(d.index) && (lengthWithin(d.busy, options.window) > 0 ||
                                               !pointsWithin(d.instants, options.window).empty());
        });
    if (!others) return timeAccount(steps, {}, {});
    GapOptions go;
    go.window = options.window;
    go.minGapNs = options.minGapNs;
    go.index = options.index;
    go.cancel = options.cancel;
    return timeAccount(steps, timeBreakdowns(trace, options.window), gapsWithCauses(trace, go));
}

}  // namespace

TimeAccount timeAccountOf(const Trace& trace, const StepOptions& options) {
    // With an index: computed once per scope (the index keeps the last few).
    if (options.index && !options.regex)
        return *options.index->rememberedAccount(
            options, [&] { return computeTimeAccountOf(trace, options); });
    return computeTimeAccountOf(trace, options);
}

}  // namespace gapscope
