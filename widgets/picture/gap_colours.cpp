#include "picture/gap_colours.h"

#include <algorithm>

#include "analysis/gpu_time_account.h"
#include "panels/cause_colors.h"

namespace gapscope::ui {

GapColorList gapCauseColours(const Trace& t, const GapOptions& options, bool dark) {
    // The time account's gaps: those the Gaps panel lists and the Overview counts.
    StepOptions so;
    so.window = options.window;
    so.minGapNs = options.minGapNs;
    so.index = options.index;
    so.cancel = options.cancel;
    const std::vector<DeviceGaps> devices = accountGaps(timeAccountOf(t, so));
    if (options.cancel && options.cancel->isCancelled()) return {};
    GapColorList colours(t.gpuDevices.size());
    for (const DeviceGaps& d : devices) {
        for (size_t e = 0; e < t.gpuDevices.size(); ++e) {
            if (t.gpuDevices[e].index != d.device) continue;
            for (const CausedGap& g : d.gaps)
                colours[e].push_back({g.gap, causeColor(g.cause, dark)});
        }
    }
    return colours;
}

ShadedGaps shadedGaps(const std::vector<std::vector<Interval>>& idle, const GapColorList& known) {
    ShadedGaps out;
    if (known.empty()) {  // not computed yet: the idle gaps, uncoloured
        out.gaps = idle;
        out.colours.resize(idle.size());
        for (size_t d = 0; d < idle.size(); ++d)
            out.colours[d].resize(idle[d].size());
        return out;
    }
    out.gaps.resize(known.size());
    out.colours.resize(known.size());
    for (size_t d = 0; d < known.size(); ++d) {
        for (const auto& [gap, colour] : known[d]) {
            out.gaps[d].push_back(gap);
            out.colours[d].push_back(colour);
        }
    }
    return out;
}

}  // namespace gapscope::ui
