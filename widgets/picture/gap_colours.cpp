#include "picture/gap_colours.h"

#include <algorithm>

#include "panels/cause_colors.h"

namespace gapscope::ui {

GapColorList gapCauseColours(const Trace& t, const GapOptions& options, bool dark) {
    const std::vector<DeviceGaps> devices = gapsWithCauses(t, options);
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

std::vector<std::vector<QColor>> matchGapColours(const std::vector<std::vector<Interval>>& gaps,
                                                 const GapColorList& known) {
    std::vector<std::vector<QColor>> out(gaps.size());
    for (size_t d = 0; d < gaps.size(); ++d) {
        out[d].reserve(gaps[d].size());
        for (const Interval& g : gaps[d]) {
            QColor c;
            if (d < known.size()) {
                const auto& k = known[d];
                const auto it = std::lower_bound(k.begin(), k.end(), g.start,
                                                 [](const std::pair<Interval, QColor>& e,
                                                    TimeNs v) { return e.first.start < v; });
                if (it != k.end() && it->first == g) c = it->second;
            }
            out[d].push_back(c);
        }
    }
    return out;
}

}  // namespace gapscope::ui
