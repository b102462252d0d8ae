#pragma once
// What holds memory, from the paired allocations (memory_allocations.h):
//  - at a moment (the peak, or any time asked): the allocations alive just
//    after the allocator's last event at or before it, grouped by the op
//    that allocated them and by phase; the allocator's total then, and
//    what of it no event in the trace allocated (allocated before it
//    began);
//  - what steps leave behind: an allocation made during step k (by its CPU
//    span) that is still alive at the end of step k + 1 outlived the step
//    that made it and the next one (steady-state buffers a step frees and
//    makes again do not); the last step is not judged. An op that leaves
//    memory behind in two or more steps is a leak candidate;
//  - allocations never freed within the trace.

#include <string>
#include <vector>

#include "analysis/memory_allocations.h"
#include "analysis/steps.h"

namespace gapscope {

struct HeldAt {
    uint32_t allocator = 0;
    uint32_t event = kNone;  // the allocator's event the moment is just after; kNone: before any
    int64_t allocated = 0;   // the allocator's total then
    int64_t reserved = -1;   // -1: not recorded
    int64_t known = 0;       // the alive allocations' bytes
    // allocated - known: held by allocations made before the trace began
    // (negative where the totals disagree with the events).
    int64_t beforeTrace = 0;
    std::vector<uint32_t> alive;  // allocations, the largest first
};

// Just after `event` of any allocator (kNone: before every event); the
// allocator's own last event at or before it.
HeldAt heldAt(const Trace& trace, const MemoryAllocations& m, uint32_t allocator, uint32_t event);

// Allocations grouped: by the allocating op's name (its module path
// before it where there is one), or by phase.
struct HeldGroup {
    std::string name;
    size_t allocations = 0;
    int64_t bytes = 0;
    uint32_t largest = kNone;  // the group's largest allocation
};
enum class HeldBy : uint8_t { Op, Phase };
std::vector<HeldGroup> groupHeld(const Trace& trace, const MemoryAllocations& m,
                                 const std::vector<uint32_t>& allocations, HeldBy by);
// "Encoder/Linear_0 › aten::empty", or the op alone; "(no op)".
std::string allocatingOp(const Trace& trace, const MemoryAllocations& m, const Allocation& a);

// What the largest groups by op at a moment hold over the whole trace: a
// stacked band under the allocator's curve. The `most` largest groups
// alive just after `event` (as groupHeld names them), then "other": every
// other allocation the trace saw made.
struct HeldBand {
    std::vector<std::string> names;           // the largest first; the last "other"
    std::vector<TimeNs> ts;                   // the allocator's events' times
    std::vector<std::vector<int64_t>> bytes;  // per group: held just after each event
};
HeldBand heldBand(const Trace& trace, const MemoryAllocations& m, uint32_t allocator,
                  uint32_t event, size_t most);

struct StepLeftover {
    size_t step = 0;  // index into the steps given
    uint32_t allocator = 0;
    size_t allocations = 0;  // made during the step
    int64_t bytes = 0;
    bool judged = false;         // a next step to outlive (not the last)
    std::vector<uint32_t> left;  // still alive at the next step's end
    int64_t leftBytes = 0;
};

struct LeakCandidate {
    uint32_t allocator = 0;
    std::string op;    // as allocatingOp names it
    size_t steps = 0;  // steps it left memory in
    size_t allocations = 0;
    int64_t bytes = 0;
    size_t neverFreed = 0;
    uint32_t first = kNone;  // its first allocation left behind
};

struct MemoryLeaks {
    std::vector<uint32_t> neverFreed;       // allocations alive at the end, by allocation
    std::vector<StepLeftover> perStep;      // by step, then allocator
    std::vector<LeakCandidate> candidates;  // in two or more steps; the most bytes first
};

MemoryLeaks memoryLeaks(const Trace& trace, const MemoryAllocations& m,
                        const std::vector<Step>& steps);

}  // namespace gapscope
