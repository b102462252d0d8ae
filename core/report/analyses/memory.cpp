// Memory per device: peaks, per step, growth (analysis/memory_usage.h).

#include <algorithm>
#include <cmath>

#include "analysis/memory_usage.h"
#include "report/analyses/builtin_analyses.h"
#include "report/analysis_tables.h"

namespace gapscope {

namespace {

// Each device's peak in each step, one table for all devices.
ResultTable perStepPeaks(const MemoryReport& memory, const std::vector<Step>& steps) {
    ResultTable table;
    table.id = "memory_per_step";
    table.title = "Peak per step";
    table.columns = {{"device", "Device", Unit::Text}};
    for (const DeviceMemory& d : memory.devices) {
        const ResultTable one = memoryStepTable(d, steps);
        if (table.columns.size() == 1)
            table.columns.insert(table.columns.end(), one.columns.begin(), one.columns.end());
        for (ResultRow row : one.rows) {
            row.cells.insert(row.cells.begin(),
                             d.gpu ? "GPU " + std::to_string(d.device) : std::string("host"));
            table.rows.push_back(std::move(row));
        }
    }
    if (table.columns.size() == 1) {  // the columns without a device to take them from
        const ResultTable one = memoryStepTable(DeviceMemory{}, {});
        table.columns.insert(table.columns.end(), one.columns.begin(), one.columns.end());
    }
    return table;
}

// The other counter series, listed as plain curves.
ResultTable otherCurves(const Trace& t, const MemoryReport& memory) {
    ResultTable table;
    table.id = "other_curves";
    table.title = "Other counters";
    table.columns = {{"name", "Counter", Unit::Text},
                     {"process", "Process", Unit::Text},
                     {"points", "Points", Unit::Count},
                     {"min", "Min", Unit::Number, 3},
                     {"max", "Max", Unit::Number, 3}};
    for (const uint32_t c : memory.otherCurves) {
        const CounterSeries& cs = t.counters[c];
        ResultRow r;
        r.cells = {std::string(t.str(cs.name)),
                   cs.process < t.processes.size() ? ResultCell(t.processes[cs.process].displayName)
                                                   : ResultCell(),
                   static_cast<int64_t>(cs.ts.size()), ResultCell(), ResultCell()};
        if (!cs.values.empty()) {
            const auto [lo, hi] = std::minmax_element(cs.values.begin(), cs.values.end());
            r.cells[3] = *lo;
            r.cells[4] = *hi;
        }
        table.rows.push_back(std::move(r));
    }
    return table;
}

// What holds memory: at each allocator's peak or at --at, and with
// --leaks what steps leave behind.
void heldTables(const Trace& t, const std::vector<Step>& steps, const AnalysisOptions& o,
                const CancelToken* cancel, bool hasCurves, AnalysisResult& r) {
    const MemoryAllocations m = pairAllocations(t, cancel);
    if (m.cancelled) return;  // (a cancelled result is never shown)
    std::vector<HeldAt> at;
    const std::optional<int64_t> when = o.value("at");
    for (uint32_t a = 0; a < m.allocators.size(); ++a)
        at.push_back(heldAt(
            t, m, a, when ? MemoryAllocations::eventAt(t, *when) : m.allocators[a].peakEvent));
    int64_t unknownFrees = 0;
    size_t withoutAddress = 0;
    for (const MemoryAllocator& a : m.allocators) {
        unknownFrees += static_cast<int64_t>(a.unknownFrees);
        withoutAddress += a.withoutAddress;
    }
    // Where the allocations come from, or why there are none to show.
    std::string source;
    if (t.memoryEvents.empty())
        source = hasCurves
                     ? "none: the trace records the allocator's totals only, not each "
                       "allocation (allocations, lifetimes and leaks cannot be shown)"
                     : "none: no allocator events (Kineto's profile_memory=True records them)";
    else if (withoutAddress == t.memoryEvents.size())
        source =
            "none: the allocator's events carry no address (older Kineto); allocations "
            "cannot be paired with their frees";
    else
        source = "allocator events with addresses, paired by address";
    r.addFigure({"allocation_source", "Allocations from", Unit::Text}, source);
    r.addFigure({"allocations", "Allocations paired", Unit::Count},
                static_cast<int64_t>(m.allocations.size()));
    r.addFigure({"unknown_frees", "Frees of addresses not allocated in the trace", Unit::Count},
                unknownFrees);
    r.tables.push_back(memoryAllocatorTable(t, m, at));
    r.tables.push_back(memoryHeldGroupTable(t, m, at, HeldBy::Op));
    r.tables.push_back(memoryHeldGroupTable(t, m, at, HeldBy::Phase));
    r.tables.push_back(
        memoryAliveTable(t, m, at, static_cast<size_t>(o.value("top").value_or(20))));
    if (o.flag("leaks"))
        for (ResultTable& table : memoryLeakTables(t, m, memoryLeaks(t, m, steps), steps))
            r.tables.push_back(std::move(table));
}

}  // namespace

Analysis memoryAnalysis() {
    Analysis a;
    a.id = "memory";
    a.title = "Memory";
    a.what = "memory peaks per device, per step, growth; what is alive at the peak, leaks";
    a.help =
        "Memory per device: Kineto [memory] events (Total Allocated / Total Reserved;\n"
        "2021 Kineto's Bytes changes give a relative curve, their running sum), and\n"
        "TensorFlow's Memory Usage counters. Peak allocated with its time, peak\n"
        "reserved, the peak as a share of the device memory (deviceProperties), the\n"
        "peak of each step and growth (least squares over >= 4 steps, R^2 >= 0.9).\n"
        "Other counter series are listed as plain curves. --range / --step: the\n"
        "per-step peaks and growth of the steps that start inside it (peaks stay\n"
        "those of the whole trace).\n"
        "Allocations: the allocator's events paired by address (an allocation lives\n"
        "until the first free of its address), each with the CPU op, nn.Module path\n"
        "and phase it was made in. Per allocator: the peak, reserved and unused then,\n"
        "the largest allocation, headroom to the device's memory, what did not pair.\n"
        "What is alive at each allocator's peak (or --at NS): by op, by phase, the\n"
        "largest one by one, and what no event in the trace allocated. --leaks: what\n"
        "each step leaves alive past the next step's end, ops that do so in two or\n"
        "more steps, and what is never freed.";
    a.options = {
        {"at", OptionSpec::Kind::Index,
         "what is alive at this time (absolute ns; default: each allocator's peak)", std::nullopt,
         "NS"},
        {"leaks", OptionSpec::Kind::Flag,
         "what each step leaves behind, leak candidates, what is never freed"},
        {"top", OptionSpec::Kind::Count, "the N largest allocations alive per device", 20}};
    a.summary = {{"memory", "memory", "Memory", {}, false},
                 {"alive_by_op",
                  "memory_alive_at_peak",
                  "Alive at the peak, by allocating op",
                  {"device", "op", "allocations", "bytes", "share"},
                  true}};
    a.textColumns = {{"allocators",
                      {"device", "allocations", "peak_allocated_bytes", "reserved_at_peak_bytes",
                       "unused_at_peak_bytes", "largest_allocation_bytes", "headroom_bytes",
                       "before_trace_bytes", "unknown_frees", "totals_disagree"}}};
    a.compute = [](const Trace& t, const Scope& scope, const AnalysisOptions& o) {
        const std::vector<Step> steps = scope.steps(t);
        const MemoryReport memory = memoryUsage(t, steps);
        AnalysisResult r;
        // The GPUs' headline: the highest absolute peak (a relative curve
        // has none) and the fastest growth per step (none where none grows).
        std::optional<double> peak, growth;
        for (const DeviceMemory& d : memory.devices) {
            if (!d.gpu || d.relative) continue;
            if (!peak || d.peakAllocated > *peak) peak = d.peakAllocated;
            if (d.growthPerStep && (!growth || *d.growthPerStep > *growth))
                growth = d.growthPerStep;
        }
        auto bytes = [](std::optional<double> v) {
            return v ? ResultCell(static_cast<int64_t>(std::llround(*v))) : ResultCell();
        };
        r.addFigure({"peak_allocated_bytes", "Peak allocated, highest GPU", Unit::Bytes},
                    bytes(peak));
        r.addFigure({"growth_bytes_per_step", "Growth per step, fastest GPU", Unit::Bytes},
                    bytes(growth));
        r.tables.push_back(memoryTable(memory));
        r.tables.push_back(perStepPeaks(memory, steps));
        r.tables.push_back(otherCurves(t, memory));
        heldTables(t, steps, o, scope.cancel,
                   !memory.devices.empty() || !memory.otherCurves.empty(), r);
        if (memory.devices.empty() && memory.otherCurves.empty())
            r.empty = "No memory events in this trace.";
        return r;
    };
    return a;
}

}  // namespace gapscope
