// The tables of what holds memory (analysis/memory_held.h): each allocator
// with its peak, fragmentation, headroom and what did not pair; what is
// alive at a moment, by op, by phase and one by one; what steps leave
// behind, leak candidates, and what is never freed.

#include <algorithm>

#include "model/device_properties.h"
#include "report/analysis_tables.h"
#include "util/saturating.h"

namespace gapscope {

namespace {

ResultCell bytesOrNone(int64_t v) {
    return v >= 0 ? ResultCell(v) : ResultCell();
}

ResultCell shareOf(int64_t part, int64_t whole) {
    return part >= 0 && whole > 0
               ? ResultCell(static_cast<double>(part) / static_cast<double>(whole))
               : ResultCell();
}

// A row that frames an allocation: its op, over its lifetime.
ResultRef allocationRef(const Trace& t, const Allocation& a) {
    ResultRef ref;
    const TimeNs from = t.memoryEvents[a.allocEvent].ts;
    const TimeNs to =
        a.freeEvent == kNone ? std::max(from, t.spanEnd) : t.memoryEvents[a.freeEvent].ts;
    ref.range = {from, std::max(to, saturatingAdd(from, 1))};
    ref.kind = a.op == kNone ? ResultRef::Kind::Range : ResultRef::Kind::Slice;
    ref.slice = a.op;
    return ref;
}

}  // namespace

ResultTable memoryAllocatorTable(const Trace& t, const MemoryAllocations& m,
                                 const std::vector<HeldAt>& at) {
    ResultTable table;
    table.id = "allocators";
    table.title = "Allocators";
    table.columns = {{"device", "Device", Unit::Text},
                     {"process", "Process", Unit::Text},
                     {"events", "Events", Unit::Count},
                     {"allocations", "Allocations", Unit::Count},
                     {"peak_allocated_bytes", "Peak allocated", Unit::Bytes},
                     {"peak_time_ns", "Peak at", Unit::Time},
                     {"reserved_at_peak_bytes", "Reserved at peak", Unit::Bytes},
                     {"unused_at_peak_bytes", "Reserved unused at peak", Unit::Bytes},
                     {"peak_reserved_bytes", "Peak reserved", Unit::Bytes},
                     {"most_unused_bytes", "Most reserved unused", Unit::Bytes},
                     {"most_unused_time_ns", "Most unused at", Unit::Time},
                     {"largest_allocation_bytes", "Largest allocation", Unit::Bytes},
                     {"largest_allocation_op", "Largest allocation's op", Unit::Text},
                     {"largest_of_reserved", "Largest / reserved at peak", Unit::Share},
                     {"device_memory_bytes", "Device memory", Unit::Bytes},
                     {"peak_reserved_of_device", "Peak reserved / device", Unit::Share},
                     {"headroom_bytes", "Headroom", Unit::Bytes},
                     {"at_ns", "At", Unit::Time},
                     {"allocated_at_bytes", "Allocated then", Unit::Bytes},
                     {"alive_known_bytes", "Held by allocations seen", Unit::Bytes},
                     {"before_trace_bytes", "Held from before the trace", Unit::Bytes},
                     {"without_address", "Events without address", Unit::Count},
                     {"unknown_frees", "Frees of unknown addresses", Unit::Count},
                     {"freed_again", "Of which freed again", Unit::Count},
                     {"allocated_while_alive", "Address allocated while alive", Unit::Count},
                     {"size_mismatches", "Frees of another size", Unit::Count},
                     {"totals_disagree", "Totals that disagree", Unit::Count}};
    const std::map<int, int64_t> deviceMemory = deviceMemoryFromProperties(t);
    std::vector<size_t> allocations(m.allocators.size(), 0);
    for (const Allocation& a : m.allocations)
        ++allocations[a.allocator];
    for (uint32_t i = 0; i < m.allocators.size() && i < at.size(); ++i) {
        const MemoryAllocator& a = m.allocators[i];
        const HeldAt& h = at[i];
        if (a.peakEvent == kNone) continue;  // (none without events: never made so)
        std::optional<int64_t> memory;
        if (a.deviceType != 0)
            if (const auto it = deviceMemory.find(a.deviceId); it != deviceMemory.end())
                memory = it->second;
        const Allocation* largest =
            a.largestAllocation == kNone ? nullptr : &m.allocations[a.largestAllocation];
        ResultRow r;
        r.cells = {
            a.name(),
            t.processes[a.process].displayName,
            static_cast<int64_t>(a.events.size()),
            static_cast<int64_t>(allocations[i]),
            a.peakAllocated,
            t.memoryEvents[a.peakEvent].ts,
            bytesOrNone(a.reservedAtPeak),
            a.reservedAtPeak >= 0 ? ResultCell(saturatingSub(a.reservedAtPeak, a.peakAllocated))
                                  : ResultCell(),
            bytesOrNone(a.peakReserved),
            bytesOrNone(a.mostUnused),
            a.mostUnusedEvent == kNone ? ResultCell()
                                       : ResultCell(t.memoryEvents[a.mostUnusedEvent].ts),
            largest ? ResultCell(largest->bytes) : ResultCell(),
            largest ? ResultCell(allocatingOp(t, m, *largest)) : ResultCell(),
            largest ? shareOf(largest->bytes, a.reservedAtPeak) : ResultCell(),
            cellOf(memory),
            memory ? shareOf(a.peakReserved, *memory) : ResultCell(),
            memory && a.peakReserved >= 0 ? ResultCell(saturatingSub(*memory, a.peakReserved))
                                          : ResultCell(),
            h.event == kNone ? ResultCell() : ResultCell(t.memoryEvents[h.event].ts),
            h.allocated,
            h.known,
            h.beforeTrace,
            static_cast<int64_t>(a.withoutAddress),
            static_cast<int64_t>(a.unknownFrees),
            static_cast<int64_t>(a.freedAgain),
            static_cast<int64_t>(a.allocatedWhileAlive),
            static_cast<int64_t>(a.sizeMismatches),
            static_cast<int64_t>(a.totalsDisagree)};
        r.ref.kind = ResultRef::Kind::Range;
        r.ref.range = {t.memoryEvents[a.peakEvent].ts,
                       saturatingAdd(t.memoryEvents[a.peakEvent].ts, 1)};
        table.rows.push_back(std::move(r));
    }
    return table;
}

ResultTable memoryHeldGroupTable(const Trace& t, const MemoryAllocations& m,
                                 const std::vector<HeldAt>& at, HeldBy by) {
    ResultTable table;
    table.id = by == HeldBy::Op ? "alive_by_op" : "alive_by_phase";
    table.title = by == HeldBy::Op ? "Alive, by allocating op" : "Alive, by phase";
    table.columns = {
        {"device", "Device", Unit::Text},
        {by == HeldBy::Op ? "op" : "phase", by == HeldBy::Op ? "Op" : "Phase", Unit::Text},
        {"allocations", "Allocations", Unit::Count},
        {"bytes", "Held", Unit::Bytes},
        {"share", "Of allocated then", Unit::Share},
        {"largest_bytes", "Largest", Unit::Bytes}};
    for (const HeldAt& h : at) {
        for (const HeldGroup& g : groupHeld(t, m, h.alive, by)) {
            ResultRow r;
            r.cells = {m.allocators[h.allocator].name(),    g.name,
                       static_cast<int64_t>(g.allocations), g.bytes,
                       shareOf(g.bytes, h.allocated),       m.allocations[g.largest].bytes};
            r.ref = allocationRef(t, m.allocations[g.largest]);
            table.rows.push_back(std::move(r));
        }
    }
    return table;
}

ResultTable memoryAliveTable(const Trace& t, const MemoryAllocations& m,
                             const std::vector<HeldAt>& at, size_t top) {
    ResultTable table;
    table.id = "alive";
    table.title = "Alive, largest first";
    table.columns = {{"device", "Device", Unit::Text},
                     {"bytes", "Size", Unit::Bytes},
                     {"op", "Allocating op", Unit::Text},
                     {"phase", "Phase", Unit::Text},
                     {"allocated_ns", "Allocated at", Unit::Time},
                     {"freed_ns", "Freed at", Unit::Time},
                     {"address", "Address", Unit::Count}};
    for (const HeldAt& h : at)
        for (size_t k = 0; k < h.alive.size() && (top == 0 || k < top); ++k) {
            const Allocation& a = m.allocations[h.alive[k]];
            ResultRow r;
            r.cells = {
                m.allocators[a.allocator].name(),
                a.bytes,
                allocatingOp(t, m, a),
                std::string(memoryPhaseName(a.phase)),
                t.memoryEvents[a.allocEvent].ts,
                a.freeEvent == kNone ? ResultCell() : ResultCell(t.memoryEvents[a.freeEvent].ts),
                static_cast<int64_t>(a.address)};
            r.ref = allocationRef(t, a);
            table.rows.push_back(std::move(r));
        }
    return table;
}

std::vector<ResultTable> memoryLeakTables(const Trace& t, const MemoryAllocations& m,
                                          const MemoryLeaks& leaks,
                                          const std::vector<Step>& steps) {
    ResultTable perStep;
    perStep.id = "left_per_step";
    perStep.title = "Left by each step (alive at the next step's end)";
    perStep.columns = {{"number", "Step", Unit::Count},
                       {"device", "Device", Unit::Text},
                       {"allocations", "Allocations", Unit::Count},
                       {"bytes", "Allocated", Unit::Bytes},
                       {"left", "Left", Unit::Count},
                       {"left_bytes", "Left bytes", Unit::Bytes}};
    for (const StepLeftover& s : leaks.perStep) {
        ResultRow r;
        r.cells = {steps[s.step].number,
                   m.allocators[s.allocator].name(),
                   static_cast<int64_t>(s.allocations),
                   s.bytes,
                   s.judged ? ResultCell(static_cast<int64_t>(s.left.size())) : ResultCell(),
                   s.judged ? ResultCell(s.leftBytes) : ResultCell()};
        r.ref.kind = ResultRef::Kind::Step;
        r.ref.step = steps[s.step].number;
        r.ref.slice = steps[s.step].slice;
        r.ref.range = steps[s.step].span;
        perStep.rows.push_back(std::move(r));
    }
    ResultTable candidates;
    candidates.id = "leak_candidates";
    candidates.title = "Leak candidates (ops that leave memory behind in two or more steps)";
    candidates.columns = {
        {"device", "Device", Unit::Text}, {"op", "Allocating op", Unit::Text},
        {"steps", "Steps", Unit::Count},  {"allocations", "Allocations", Unit::Count},
        {"bytes", "Bytes", Unit::Bytes},  {"never_freed", "Never freed", Unit::Count}};
    for (const LeakCandidate& c : leaks.candidates) {
        ResultRow r;
        r.cells = {
            m.allocators[c.allocator].name(),    c.op,    static_cast<int64_t>(c.steps),
            static_cast<int64_t>(c.allocations), c.bytes, static_cast<int64_t>(c.neverFreed)};
        r.ref = allocationRef(t, m.allocations[c.first]);
        candidates.rows.push_back(std::move(r));
    }
    // Never freed, by op.
    ResultTable never;
    never.id = "never_freed";
    never.title = "Never freed within the trace, by allocating op";
    never.columns = {{"device", "Device", Unit::Text},
                     {"op", "Allocating op", Unit::Text},
                     {"allocations", "Allocations", Unit::Count},
                     {"bytes", "Bytes", Unit::Bytes},
                     {"first_ns", "First at", Unit::Time}};
    std::map<std::pair<uint32_t, std::string>, std::pair<std::vector<uint32_t>, int64_t>> byOp;
    for (const uint32_t i : leaks.neverFreed) {
        auto& [list, bytes] =
            byOp[{m.allocations[i].allocator, allocatingOp(t, m, m.allocations[i])}];
        list.push_back(i);
        bytes = saturatingAdd(bytes, m.allocations[i].bytes);
    }
    std::vector<
        std::pair<std::pair<uint32_t, std::string>, std::pair<std::vector<uint32_t>, int64_t>>>
        sorted(byOp.begin(), byOp.end());
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& x, const auto& y) {
        return x.second.second > y.second.second;
    });
    for (const auto& [key, value] : sorted) {
        const Allocation& first = m.allocations[value.first.front()];
        ResultRow r;
        r.cells = {m.allocators[key.first].name(), key.second,
                   static_cast<int64_t>(value.first.size()), value.second,
                   t.memoryEvents[first.allocEvent].ts};
        r.ref = allocationRef(t, first);
        never.rows.push_back(std::move(r));
    }
    return {std::move(perStep), std::move(candidates), std::move(never)};
}

}  // namespace gapscope
