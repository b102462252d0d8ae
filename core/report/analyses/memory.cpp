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

}  // namespace

Analysis memoryAnalysis() {
    Analysis a;
    a.id = "memory";
    a.title = "Memory";
    a.what = "memory peaks per device, per step, growth";
    a.help =
        "Memory per device: Kineto [memory] events (Total Allocated / Total Reserved;\n"
        "2021 Kineto's Bytes changes give a relative curve, their running sum), and\n"
        "TensorFlow's Memory Usage counters. Peak allocated with its time, peak\n"
        "reserved, the peak as a share of the device memory (deviceProperties), the\n"
        "peak of each step and growth (least squares over >= 4 steps, R^2 >= 0.9).\n"
        "Other counter series are listed as plain curves. --range / --step: the\n"
        "per-step peaks and growth of the steps that start inside it (peaks stay\n"
        "those of the whole trace).";
    a.summary = {{"memory", "memory", "Memory", {}, false}};
    a.compute = [](const Trace& t, const Scope& scope, const AnalysisOptions&) {
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
        if (memory.devices.empty() && memory.otherCurves.empty())
            r.empty = "No memory events in this trace.";
        return r;
    };
    return a;
}

}  // namespace gapscope
