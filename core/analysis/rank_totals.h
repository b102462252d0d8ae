#pragma once
// A rank's totals over its steps: the Ranks panel's row and the "totals"
// of the ranks JSON, defined once. Sums saturate: the figures may come from
// a hostile fleet table.

#include "analysis/rank_figures.h"

namespace gapscope {

struct RankTotals {
    TimeNs duration = 0, busy = 0, comm = 0, exposedComm = 0, wait = 0, transfer = 0;
    TimeNs gpuTime = 0;  // the steps' GPU windows: busy is a share of it
};

RankTotals rankTotals(const RankFigures& figures);

}  // namespace gapscope
