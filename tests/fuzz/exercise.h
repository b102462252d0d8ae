#pragma once
// What every fuzz target does with a trace that loaded: the queries a
// person's clicks and scrolling trigger.

#include "analysis/memory_held.h"
#include "analysis/slice_queries.h"
#include "model/args_json.h"
#include "model/trace.h"

namespace gapscope::fuzz {

// What the viewer does with a loaded trace.
inline void exercise(const gapscope::Trace& t) {
    using namespace gapscope;
    const TimeNs mid = t.spanStart / 2 + t.spanEnd / 2;  // no overflow, whatever the span
    for (const Track& tr : t.tracks) {
        for (const Row& row : tr.rows)
            t.visibleInRow(row, t.spanStart, mid);
        std::vector<uint32_t> hits;
        tr.index.overlapping(t.slices, mid, mid, hits);
    }
    for (uint32_t i = 0; i < t.slices.size() && i < 64; ++i) {
        selfTime(t, i);
        prettyArgs(t, t.slices[i].args);
        t.trackOfSlice(i);
    }
    summarizeRange(t, t.spanStart, t.spanEnd);
    // The allocator's events paired, what is alive at each peak and mid-way,
    // what steps leave behind.
    const MemoryAllocations m = pairAllocations(t);
    for (uint32_t a = 0; a < m.allocators.size(); ++a) {
        heldAt(t, m, a, m.allocators[a].peakEvent);
        const HeldAt h = heldAt(t, m, a, MemoryAllocations::eventAt(t, mid));
        groupHeld(t, m, h.alive, HeldBy::Op);
    }
    memoryLeaks(t, m, findSteps(t).steps);
}

}  // namespace gapscope::fuzz
