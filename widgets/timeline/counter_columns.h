#pragma once
// A counter series per pixel column of a time axis, as a step function: for
// each column, the extremes of the value in effect when it starts and of
// every sample inside it (from the series' min/max index, so no spike is
// skipped however many samples fall in one column). O(pixels · log n), and
// the searches gallop from the previous column, so they stay in cache.
// Shared by the timeline's counter rows and the Memory panel's chart.

#include <algorithm>

#include "model/trace.h"
#include "timeline/time_axis.h"
#include "util/gallop.h"

namespace gapscope::ui {

// Calls f(x, MinMax) for each column x in [0, width] that has a value.
template <class F>
void forEachCounterColumn(const CounterSeries& cs, const TimeAxis& axis, int width, F&& f) {
    if (cs.ts.empty()) return;
    size_t from = 0;  // columns move right: each search starts where the last ended
    for (int x = 0; x <= width; ++x) {
        const TimeNs t0 = axis.toTime(x), t1 = axis.toTime(x + 1);
        const auto first =
            gallopLowerBound(cs.ts.begin() + static_cast<ptrdiff_t>(from), cs.ts.end(), t0);
        const auto last = gallopLowerBound(first, cs.ts.end(), t1);
        const size_t a = static_cast<size_t>(first - cs.ts.begin());
        const size_t b = static_cast<size_t>(last - cs.ts.begin());
        from = b;
        if (a == 0 && b == 0) continue;  // before the first sample
        MinMax m =
            a > 0 ? MinMax{cs.values[a - 1], cs.values[a - 1]} : MinMax{cs.values[0], cs.values[0]};
        if (b > a) {
            const MinMax inside = cs.extremes.query(cs.values, a, b);
            m.min = std::min(m.min, inside.min);
            m.max = std::max(m.max, inside.max);
        }
        f(x, m);
        if (b == cs.ts.size() && cs.ts.back() < t0) break;  // past the last sample
    }
}

}  // namespace gapscope::ui
