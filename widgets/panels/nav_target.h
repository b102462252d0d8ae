#pragma once
// Where a row, a bar or a link of a panel leads on the timeline.

#include "index/interval_set.h"
#include "model/string_table.h"
#include "util/types.h"

namespace gapscope::ui {

struct NavTarget {
    enum class Kind { None, Slice, Range, Step, Name };
    Kind kind = Kind::None;
    uint32_t slice = kNone;  // Slice (and the step's slice for Step)
    // Range, Step; Slice: a span of the slice's to select with it (an
    // allocation's lifetime), or empty.
    Interval range;
    int64_t step = 0;        // Step: its number
    StringId name = 0;       // Name: every slice of that name (a kernel row)
    bool backwards = false;  // Name again: the previous occurrence (Shift+Enter)

    static NavTarget toSlice(uint32_t s) {
        NavTarget t;
        t.kind = Kind::Slice;
        t.slice = s;
        return t;
    }
    static NavTarget toRange(Interval r) {
        NavTarget t;
        t.kind = Kind::Range;
        t.range = r;
        return t;
    }
};

}  // namespace gapscope::ui
