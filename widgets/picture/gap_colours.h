#pragma once
// GPU idle gaps coloured by their cause, for the timeline's shading and the
// exported pictures: the gaps and causes of the GPU time account
// (analysis/gpu_time_account.h: what the Gaps panel lists and the Overview
// counts), the colours from cause_colors. Until they are computed (on a
// worker) the shading shows the busy union's idle gaps (analysis/idle_gaps),
// uncoloured.

#include <QColor>
#include <utility>
#include <vector>

#include "analysis/gap_causes.h"
#include "model/trace.h"

namespace gapscope::ui {

// Per entry of Trace::gpuDevices: each caused gap and its colour, in order.
using GapColorList = std::vector<std::vector<std::pair<Interval, QColor>>>;

// Empty when cancelled through options.cancel.
GapColorList gapCauseColours(const Trace& trace, const GapOptions& options, bool dark);

// What to shade: the account's caused gaps once known, else `idle`
// uncoloured (invalid colours: the default shading). Parallel lists per
// entry of Trace::gpuDevices.
struct ShadedGaps {
    std::vector<std::vector<Interval>> gaps;
    std::vector<std::vector<QColor>> colours;
};
ShadedGaps shadedGaps(const std::vector<std::vector<Interval>>& idle, const GapColorList& known);

}  // namespace gapscope::ui
