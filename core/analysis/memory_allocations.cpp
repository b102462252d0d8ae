#include "analysis/memory_allocations.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

#include "model/slice_kind.h"
#include "model/vocabulary/vocabulary.h"
#include "util/saturating.h"

namespace gapscope {

const char* memoryPhaseName(MemoryPhase phase) {
    switch (phase) {
        case MemoryPhase::Forward:
            return "forward";
        case MemoryPhase::Backward:
            return "backward";
        case MemoryPhase::Optimizer:
            return "optimizer";
        case MemoryPhase::Input:
            return "input";
        case MemoryPhase::None:
            break;
    }
    return "";
}

std::string MemoryAllocator::name() const {
    if (deviceType == 0) return "host";
    if (deviceType == 1) return "GPU " + std::to_string(deviceId);
    return "device type " + std::to_string(deviceType) + ", " + std::to_string(deviceId);
}

uint32_t MemoryAllocations::eventAt(const Trace& t, TimeNs at) {
    const auto it = std::upper_bound(t.memoryEvents.begin(), t.memoryEvents.end(), at,
                                     [](TimeNs v, const MemoryEvent& e) { return v < e.ts; });
    return it == t.memoryEvents.begin() ? kNone
                                        : static_cast<uint32_t>(it - t.memoryEvents.begin() - 1);
}

namespace {

// What a thread was in at a moment: every slice of its track around it.
class Attribution {
  public:
    Attribution(const Trace& t, MemoryAllocations& out) : t_(t), out_(out) {}

    void attribute(const MemoryEvent& e, Allocation& a) {
        const Track& track = t_.tracks[e.track];
        around_.clear();
        for (const Row& row : track.rows) {
            const auto [lo, hi] = t_.visibleInRow(row, e.ts, e.ts);
            for (uint32_t i = lo; i < hi; ++i)
                if (t_.slices[i].start <= e.ts && t_.slices[i].end() >= e.ts) around_.push_back(i);
        }
        // Outer first: by depth, then the longer.
        std::sort(around_.begin(), around_.end(), [&](uint32_t x, uint32_t y) {
            const Slice& p = t_.slices[x];
            const Slice& q = t_.slices[y];
            return std::tuple(p.depth, -p.dur, x) < std::tuple(q.depth, -q.dur, y);
        });
        uint32_t op = kNone, innermost = kNone;
        std::string path;
        bool optimizer = false, backward = false, input = false, forward = false;
        for (const uint32_t i : around_) {
            const Slice& s = t_.slices[i];
            const std::string_view name = t_.str(s.name);
            if (vocabulary::isAllocatorEventName(name)) continue;  // (the event itself)
            innermost = i;
            if (sliceKind(s) == SliceKind::CpuOp) op = i;
            if (const std::string_view module = vocabulary::moduleFrameName(name);
                !module.empty()) {
                if (!path.empty()) path += '/';
                path += module;
                forward = true;
            }
            const vocabulary::TrainingPhaseMark mark = vocabulary::trainingPhaseMark(name);
            optimizer |= mark == vocabulary::TrainingPhaseMark::Optimizer;
            backward |= mark == vocabulary::TrainingPhaseMark::Backward;
            input |= hostRole(s) == HostRole::InputWait;
            forward |= vocabulary::isStepName(name);
        }
        a.op = op != kNone ? op : innermost;
        a.phase = optimizer  ? MemoryPhase::Optimizer
                  : backward ? MemoryPhase::Backward
                  : input    ? MemoryPhase::Input
                  : forward  ? MemoryPhase::Forward
                             : MemoryPhase::None;
        if (!path.empty()) {
            const auto [it, added] =
                pathIndex_.try_emplace(path, static_cast<uint32_t>(out_.modulePaths.size()));
            if (added) out_.modulePaths.push_back(path);
            a.modulePath = it->second;
        }
    }

  private:
    const Trace& t_;
    MemoryAllocations& out_;
    std::vector<uint32_t> around_;
    std::unordered_map<std::string, uint32_t> pathIndex_;
};

}  // namespace

MemoryAllocations pairAllocations(const Trace& t, const CancelToken* cancel) {
    MemoryAllocations out;
    const auto& events = t.memoryEvents;
    out.allocatedAfter.assign(events.size(), 0);
    // The allocators, each with its events in order.
    std::map<std::tuple<uint32_t, int16_t, int32_t>, uint32_t> allocatorOf;  // (in the order seen)
    for (uint32_t i = 0; i < events.size(); ++i) {
        const MemoryEvent& e = events[i];
        const uint32_t process = t.tracks[e.track].process;
        const auto [it, added] = allocatorOf.try_emplace(
            std::tuple(process, e.deviceType, e.deviceId), uint32_t(out.allocators.size()));
        if (added) {
            MemoryAllocator a;
            a.process = process;
            a.deviceType = e.deviceType;
            a.deviceId = e.deviceId;
            out.allocators.push_back(std::move(a));
        }
        out.allocators[it->second].events.push_back(i);
    }
    // Devices first (by type and index), then the host; by process between equals.
    std::stable_sort(out.allocators.begin(), out.allocators.end(),
                     [](const MemoryAllocator& x, const MemoryAllocator& y) {
                         return std::tuple(x.deviceType == 0, x.deviceType, x.deviceId, x.process) <
                                std::tuple(y.deviceType == 0, y.deviceType, y.deviceId, y.process);
                     });
    Attribution attribution(t, out);
    // An address's state in its allocator: alive (an allocation) or freed.
    constexpr uint32_t kFreed = kNone;
    std::unordered_map<uint64_t, uint32_t> addresses;
    for (uint32_t a = 0; a < out.allocators.size(); ++a) {
        if (cancel && cancel->isCancelled()) {
            out.cancelled = true;
            return out;
        }
        MemoryAllocator& alloc = out.allocators[a];
        const MemoryEvent& first = events[alloc.events.front()];
        // (The host's allocator writes totals of 0 where it keeps none.)
        auto recorded = [&](int64_t MemoryEvent::*total) {
            return std::all_of(alloc.events.begin(), alloc.events.end(),
                               [&](uint32_t i) { return events[i].*total >= 0; }) &&
                   std::any_of(alloc.events.begin(), alloc.events.end(),
                               [&](uint32_t i) { return events[i].*total > 0; });
        };
        alloc.totalsRecorded = recorded(&MemoryEvent::totalAllocated);
        alloc.reservedRecorded = recorded(&MemoryEvent::totalReserved);
        alloc.before = alloc.totalsRecorded ? saturatingSub(first.totalAllocated, first.bytes) : 0;
        addresses.clear();
        int64_t allocated = alloc.before;
        bool atFirst = true;
        for (const uint32_t i : alloc.events) {
            const MemoryEvent& e = events[i];
            // The total after it: the allocator's own where recorded (and
            // whether it is the one before plus the change).
            const int64_t summed = saturatingAdd(allocated, e.bytes);
            if (alloc.totalsRecorded) {
                if (!atFirst && summed != e.totalAllocated) ++alloc.totalsDisagree;
                allocated = e.totalAllocated;
            } else {
                allocated = summed;
            }
            atFirst = false;
            out.allocatedAfter[i] = allocated;
            if (alloc.peakEvent == kNone || allocated > alloc.peakAllocated) {
                alloc.peakAllocated = allocated;
                alloc.peakEvent = i;
                alloc.reservedAtPeak = alloc.reservedRecorded ? e.totalReserved : -1;
            }
            if (alloc.reservedRecorded) {
                alloc.peakReserved = std::max(alloc.peakReserved, e.totalReserved);
                const int64_t unused = saturatingSub(e.totalReserved, allocated);
                if (alloc.mostUnusedEvent == kNone || unused > alloc.mostUnused) {
                    alloc.mostUnused = unused;
                    alloc.mostUnusedEvent = i;
                }
            }
            if (!(e.flags & kMemoryEventHasAddress)) {
                ++alloc.withoutAddress;
                continue;
            }
            if (e.bytes > 0) {
                const auto index = static_cast<uint32_t>(out.allocations.size());
                auto [it, added] = addresses.try_emplace(e.address, index);
                if (!added) {
                    if (it->second != kFreed) {  // alive still: its free was never written
                        ++alloc.allocatedWhileAlive;
                        out.allocations[it->second].freeEvent = i;
                        out.allocations[it->second].endedByReuse = true;
                    }
                    it->second = index;
                }
                Allocation allocation;
                allocation.allocator = a;
                allocation.allocEvent = i;
                allocation.address = e.address;
                allocation.bytes = e.bytes;
                allocation.opName = e.op;
                attribution.attribute(e, allocation);
                out.allocations.push_back(allocation);
            } else if (e.bytes < 0) {
                const auto it = addresses.find(e.address);
                if (it == addresses.end() || it->second == kFreed) {
                    ++alloc.unknownFrees;
                    if (it != addresses.end()) ++alloc.freedAgain;
                    out.unknownFrees.push_back(i);
                    continue;
                }
                Allocation& allocation = out.allocations[it->second];
                allocation.freeEvent = i;
                // (INT64_MIN has no positive twin: a mismatch.)
                if (e.bytes == INT64_MIN || -e.bytes != allocation.bytes) ++alloc.sizeMismatches;
                it->second = kFreed;
            }
        }
    }
    std::sort(out.allocations.begin(), out.allocations.end(),
              [](const Allocation& x, const Allocation& y) { return x.allocEvent < y.allocEvent; });
    for (uint32_t i = 0; i < out.allocations.size(); ++i) {
        MemoryAllocator& alloc = out.allocators[out.allocations[i].allocator];
        if (alloc.largestAllocation == kNone ||
            out.allocations[i].bytes > out.allocations[alloc.largestAllocation].bytes)
            alloc.largestAllocation = i;
    }
    return out;
}

}  // namespace gapscope
