#include <cmath>
#include <string>

#include "report/analysis_tables.h"

namespace gapscope {

ResultTable memoryTable(const MemoryReport& memory) {
    ResultTable table;
    table.id = "memory";
    table.title = "Memory";
    table.columns = {{"device", "Device", Unit::Text},
                     {"peak_allocated_bytes", "Peak allocated", Unit::Bytes},
                     {"peak_time_ns", "Peak at", Unit::Time},
                     {"peak_reserved_bytes", "Peak reserved", Unit::Bytes},
                     {"device_memory_bytes", "Device memory", Unit::Bytes},
                     {"peak_share", "Of the device", Unit::Share},
                     {"growth_bytes_per_step", "Growth per step", Unit::Bytes},
                     {"growth_r2", "Growth r²", Unit::Number, 3},
                     {"relative", "Relative to the first sample", Unit::Flag}};
    auto bytes = [](const std::optional<double>& v) {
        return v ? ResultCell(static_cast<int64_t>(std::llround(*v))) : ResultCell();
    };
    for (const DeviceMemory& d : memory.devices) {
        ResultRow r;
        r.cells = {d.gpu ? "GPU " + std::to_string(d.device) : std::string("host"),
                   bytes(d.peakAllocated),
                   d.peakTime,
                   bytes(d.peakReserved),
                   cellOf(d.deviceMemory),
                   cellOf(d.peakShare),
                   bytes(d.growthPerStep),
                   cellOf(d.growthR2),
                   int64_t{d.relative}};
        r.ref.kind = ResultRef::Kind::Range;
        r.ref.range = {d.peakTime, d.peakTime + 1};
        table.rows.push_back(std::move(r));
    }
    return table;
}

ResultTable memoryStepTable(const DeviceMemory& d, const std::vector<Step>& steps) {
    ResultTable table;
    table.id = "memory_per_step";
    table.title = "Peak per step";
    table.columns = {{"number", "Step", Unit::Count}, {"peak_bytes", "Peak", Unit::Bytes}};
    for (size_t i = 0; i < d.perStepPeak.size() && i < steps.size(); ++i) {
        ResultRow r;
        r.cells = {steps[i].number,
                   d.perStepPeak[i]
                       ? ResultCell(static_cast<int64_t>(std::llround(*d.perStepPeak[i])))
                       : ResultCell()};
        r.ref.kind = ResultRef::Kind::Step;
        r.ref.step = steps[i].number;
        r.ref.slice = steps[i].slice;
        r.ref.range = steps[i].span;
        table.rows.push_back(std::move(r));
    }
    return table;
}

}  // namespace gapscope
