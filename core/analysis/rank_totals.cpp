#include "analysis/rank_totals.h"

#include <cstdint>

namespace gapscope {

namespace {

void add(TimeNs& sum, TimeNs v) {
    if (__builtin_add_overflow(sum, v, &sum)) sum = v < 0 ? INT64_MIN : INT64_MAX;
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
