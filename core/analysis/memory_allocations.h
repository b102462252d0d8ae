#pragma once
// The allocator's events (Trace::memoryEvents, Kineto's [memory] with
// profile_memory=True) paired into allocations with lifetimes:
//  - an allocator is one device's memory as one process sees it (its
//    addresses are that process's); its events in time order (file order
//    between equals);
//  - an allocation (bytes > 0) at an address lives until the first free
//    (bytes < 0) of that address by the same allocator; one never freed in
//    the trace is alive at its end;
//  - what does not pair is counted apart, never guessed: a free of an
//    address not allocated in the trace (allocated before it began, or freed
//    twice), an address allocated again while alive (the first allocation
//    then ends there, its free unseen), a free whose size is not the
//    allocation's, events without an address (2021's Kineto: no pairing);
//  - each allocation is attributed to what its thread was doing then: the
//    innermost CPU op (or the op the producer names: TensorFlow's tf_op),
//    the nn.Module frames around it (with_modules / with_stack), and its
//    phase where the trace's annotations say so.
// The allocated total after each event is the allocator's own "Total
// Allocated" where recorded (and where it is not, the sum of the changes
// from the first event): the figures below are read from it.

#include <cstdint>
#include <string>
#include <vector>

#include "model/trace.h"
#include "util/cancel_token.h"

namespace gapscope {

// What the trace's annotations say the thread was in: the optimizer's step
// or zero_grad (torch.optim's "Optimizer.*" ranges), autograd's backward
// (its engine's functions, *Backward ops), the wait for input (a
// DataLoader's next), or else a step or module frame (forward); none
// outside all of them.
enum class MemoryPhase : uint8_t { None, Forward, Backward, Optimizer, Input };
inline constexpr size_t kMemoryPhaseCount = 5;
const char* memoryPhaseName(MemoryPhase phase);  // "", "forward", "backward", …

struct MemoryAllocator {
    uint32_t process = 0;
    int16_t deviceType = 0;        // c10::DeviceType: 0 the host, 1 CUDA (and ROCm)
    int32_t deviceId = -1;         // -1: the host
    std::vector<uint32_t> events;  // its Trace::memoryEvents, in order
    // Every event carries "Total Allocated", not all 0 (else the totals
    // below are the sum of the changes from the first event, 0 before it);
    // likewise "Total Reserved".
    bool totalsRecorded = false;
    bool reservedRecorded = false;
    // Allocated before the first event: the first event's total less its
    // change (0 without totals).
    int64_t before = 0;
    // Peak allocated: its value and its event (the first to reach it).
    int64_t peakAllocated = 0;
    uint32_t peakEvent = kNone;
    int64_t reservedAtPeak = -1;  // -1: not recorded
    int64_t peakReserved = -1;
    // The most reserved and not allocated (reserved - allocated) after any
    // event, and that event; -1 without reserved totals.
    int64_t mostUnused = -1;
    uint32_t mostUnusedEvent = kNone;
    uint32_t largestAllocation = kNone;  // index into allocations
    // What did not pair, and events whose recorded total is not the one
    // before plus the change.
    size_t withoutAddress = 0;
    size_t unknownFrees = 0;  // no allocation of that address in the trace
    size_t freedAgain = 0;    // ... of which the address was freed in it already
    size_t allocatedWhileAlive = 0;
    size_t sizeMismatches = 0;
    size_t totalsDisagree = 0;
    std::string name() const;  // "GPU 0", "host", "device type 8, 0"
};

struct Allocation {
    uint32_t allocator = 0;
    uint32_t allocEvent = 0;
    // Its free; kNone: alive at the end. Where its address was allocated
    // again while it lived, that allocation (endedByReuse).
    uint32_t freeEvent = kNone;
    bool endedByReuse = false;
    uint64_t address = 0;
    int64_t bytes = 0;
    uint32_t op = kNone;          // innermost CPU op on its thread (a slice)
    StringId opName = 0;          // the op the producer says made it (tf_op); 0: none
    uint32_t modulePath = kNone;  // index into MemoryAllocations::modulePaths
    MemoryPhase phase = MemoryPhase::None;
};

struct MemoryAllocations {
    std::vector<MemoryAllocator> allocators;  // devices by type and index, then the host
    std::vector<Allocation> allocations;      // by allocation event
    // Frees of addresses not allocated in the trace: events.
    std::vector<uint32_t> unknownFrees;
    // "Encoder/Linear_0": the nn.Module frames around an allocation, outer first.
    std::vector<std::string> modulePaths;
    bool cancelled = false;

    // The allocator's allocated total just after each event (by
    // Trace::memoryEvents).
    std::vector<int64_t> allocatedAfter;

    // The last event at or before `at` (ns), kNone before the first: what
    // is alive "at" a moment is what is alive just after it.
    static uint32_t eventAt(const Trace& t, TimeNs at);
    static bool aliveAfter(const Allocation& a, uint32_t event) {
        return a.allocEvent <= event && (a.freeEvent == kNone || a.freeEvent > event);
    }
};

MemoryAllocations pairAllocations(const Trace& trace, const CancelToken* cancel = nullptr);

}  // namespace gapscope
