#include "analysis/memory_held.h"

#include <algorithm>
#include <map>
#include <set>

#include "util/saturating.h"

namespace gapscope {

HeldAt heldAt(const Trace& t, const MemoryAllocations& m, uint32_t allocator, uint32_t event) {
    HeldAt out;
    out.allocator = allocator;
    const MemoryAllocator& alloc = m.allocators[allocator];
    // The allocator's last event at or before it.
    if (event != kNone) {
        const auto it = std::upper_bound(alloc.events.begin(), alloc.events.end(), event);
        if (it != alloc.events.begin()) out.event = *std::prev(it);
    }
    if (out.event == kNone) {
        out.allocated = alloc.before;
        out.beforeTrace = alloc.before;
        return out;
    }
    out.allocated = m.allocatedAfter[out.event];
    if (alloc.reservedRecorded) out.reserved = t.memoryEvents[out.event].totalReserved;
    for (uint32_t i = 0; i < m.allocations.size(); ++i) {
        const Allocation& a = m.allocations[i];
        if (a.allocEvent > out.event) break;  // (by allocation event)
        if (a.allocator == allocator && MemoryAllocations::aliveAfter(a, out.event)) {
            out.alive.push_back(i);
            out.known = saturatingAdd(out.known, a.bytes);
        }
    }
    std::stable_sort(out.alive.begin(), out.alive.end(), [&](uint32_t x, uint32_t y) {
        return m.allocations[x].bytes > m.allocations[y].bytes;
    });
    out.beforeTrace = saturatingSub(out.allocated, out.known);
    return out;
}

std::string allocatingOp(const Trace& t, const MemoryAllocations& m, const Allocation& a) {
    std::string out;
    if (a.modulePath != kNone) out = m.modulePaths[a.modulePath] + " › ";
    out += a.opName != 0   ? std::string(t.str(a.opName))
           : a.op == kNone ? std::string("(no op)")
                           : std::string(t.str(t.slices[a.op].name));
    return out;
}

std::vector<HeldGroup> groupHeld(const Trace& t, const MemoryAllocations& m,
                                 const std::vector<uint32_t>& allocations, HeldBy by) {
    std::map<std::string, HeldGroup> groups;
    for (const uint32_t i : allocations) {
        const Allocation& a = m.allocations[i];
        std::string name =
            by == HeldBy::Op ? allocatingOp(t, m, a) : std::string(memoryPhaseName(a.phase));
        if (name.empty()) name = "(none)";
        HeldGroup& g = groups[name];
        g.name = name;
        ++g.allocations;
        g.bytes = saturatingAdd(g.bytes, a.bytes);
        if (g.largest == kNone || a.bytes > m.allocations[g.largest].bytes) g.largest = i;
    }
    std::vector<HeldGroup> out;
    for (auto& [name, g] : groups)
        out.push_back(std::move(g));
    std::stable_sort(out.begin(), out.end(),
                     [](const HeldGroup& x, const HeldGroup& y) { return x.bytes > y.bytes; });
    return out;
}

HeldBand heldBand(const Trace& t, const MemoryAllocations& m, uint32_t allocator, uint32_t event,
                  size_t most) {
    HeldBand out;
    const MemoryAllocator& alloc = m.allocators[allocator];
    const std::vector<HeldGroup> groups =
        groupHeld(t, m, heldAt(t, m, allocator, event).alive, HeldBy::Op);
    std::map<std::string, size_t> layerOf;
    for (size_t i = 0; i < groups.size() && i < most; ++i) {
        layerOf.emplace(groups[i].name, i);
        out.names.push_back(groups[i].name);
    }
    out.names.push_back("other");
    const size_t other = out.names.size() - 1;
    // Each allocation's change at its start and its end, by the
    // allocator's event index (its events in order).
    std::vector<std::vector<int64_t>> change(out.names.size(),
                                             std::vector<int64_t>(alloc.events.size(), 0));
    auto place = [&](uint32_t e) {
        return static_cast<size_t>(std::lower_bound(alloc.events.begin(), alloc.events.end(), e) -
                                   alloc.events.begin());
    };
    for (const Allocation& a : m.allocations) {
        if (a.allocator != allocator) continue;
        const auto it = layerOf.find(allocatingOp(t, m, a));
        std::vector<int64_t>& layer = change[it == layerOf.end() ? other : it->second];
        layer[place(a.allocEvent)] = saturatingAdd(layer[place(a.allocEvent)], a.bytes);
        if (a.freeEvent != kNone)
            layer[place(a.freeEvent)] = saturatingSub(layer[place(a.freeEvent)], a.bytes);
    }
    for (const uint32_t e : alloc.events)
        out.ts.push_back(t.memoryEvents[e].ts);
    for (std::vector<int64_t>& layer : change) {
        int64_t held = 0;
        for (int64_t& c : layer) {
            held = saturatingAdd(held, c);
            c = held;
        }
        out.bytes.push_back(std::move(layer));
    }
    return out;
}

MemoryLeaks memoryLeaks(const Trace& t, const MemoryAllocations& m,
                        const std::vector<Step>& steps) {
    MemoryLeaks out;
    for (uint32_t i = 0; i < m.allocations.size(); ++i)
        if (m.allocations[i].freeEvent == kNone) out.neverFreed.push_back(i);
    auto ts = [&](uint32_t event) { return t.memoryEvents[event].ts; };
    struct Key {
        uint32_t allocator;
        std::string op;
        bool operator<(const Key& o) const {
            return std::tie(allocator, op) < std::tie(o.allocator, o.op);
        }
    };
    std::map<Key, LeakCandidate> byOp;
    std::map<Key, std::set<size_t>> stepsOf;
    for (size_t k = 0; k < steps.size(); ++k) {
        const Interval span = steps[k].span;
        std::map<uint32_t, StepLeftover> mine;  // by allocator
        // (Allocations are in time order: the step's are a run of them.)
        const auto from =
            std::lower_bound(m.allocations.begin(), m.allocations.end(), span.start,
                             [&](const Allocation& a, TimeNs v) { return ts(a.allocEvent) < v; });
        for (auto i = static_cast<uint32_t>(from - m.allocations.begin());
             i < m.allocations.size() && ts(m.allocations[i].allocEvent) < span.end; ++i) {
            const Allocation& a = m.allocations[i];
            StepLeftover& s = mine[a.allocator];
            s.step = k;
            s.allocator = a.allocator;
            ++s.allocations;
            s.bytes = saturatingAdd(s.bytes, a.bytes);
            s.judged = k + 1 < steps.size();
            if (!s.judged) continue;
            const TimeNs nextEnd = steps[k + 1].span.end;
            if (a.freeEvent != kNone && ts(a.freeEvent) <= nextEnd) continue;
            s.left.push_back(i);
            s.leftBytes = saturatingAdd(s.leftBytes, a.bytes);
            const Key key{a.allocator, allocatingOp(t, m, a)};
            LeakCandidate& c = byOp[key];
            c.allocator = a.allocator;
            c.op = key.op;
            ++c.allocations;
            c.bytes = saturatingAdd(c.bytes, a.bytes);
            c.neverFreed += a.freeEvent == kNone;
            if (c.first == kNone) c.first = i;
            stepsOf[key].insert(k);
        }
        for (auto& [allocator, s] : mine)
            out.perStep.push_back(std::move(s));
    }
    for (auto& [key, c] : byOp) {
        c.steps = stepsOf[key].size();
        if (c.steps >= 2) out.candidates.push_back(std::move(c));
    }
    std::stable_sort(out.candidates.begin(), out.candidates.end(),
                     [](const LeakCandidate& x, const LeakCandidate& y) {
                         return std::tie(y.bytes, y.steps) < std::tie(x.bytes, x.steps);
                     });
    return out;
}

}  // namespace gapscope
