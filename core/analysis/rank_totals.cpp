#include "analysis/rank_totals.h"

#include <cstdint>

#include "util/saturating.h"

namespace gapscope {

namespace {

void add(TimeNs& sum, TimeNs v) {
    sum = saturatingAdd(sum, v);
}

}  // namespace

RankTotals rankTotals(const RankFigures& figures) {
    RankTotals t;
    for (const RankStep& s : figures.steps) {
        add(t.duration, s.duration());
        add(t.busy, s.busy);
        add(t.gpuTime, s.gpuTime());
        add(t.comm, s.comm);
        add(t.exposedComm, s.exposedComm);
        add(t.wait, s.wait.value_or(0));
        add(t.transfer, s.transfer.value_or(0));
    }
    return t;
}

}  // namespace gapscope
