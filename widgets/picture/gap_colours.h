#pragma once
// GPU idle gaps coloured by their cause, for the timeline's shading and the
// exported pictures: the causes come from analysis/gap_causes, the colours
// from cause_colors; the shading's own gaps (analysis/idle_gaps) get theirs
// by matching intervals.

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

// Parallel to `gaps`: the colour of each gap found in `known`, else an
// invalid colour (the default shading).
std::vector<std::vector<QColor>> matchGapColours(const std::vector<std::vector<Interval>>& gaps,
                                                 const GapColorList& known);

}  // namespace gapscope::ui
