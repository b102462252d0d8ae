#include <algorithm>
#include <string>

#include "report/analysis_tables.h"

namespace gapscope {

std::vector<ResultColumn> efficiencyColumns() {
    return {{"tflops", "TFLOP/s", Unit::Number}, {"of_roofline", "Of roofline", Unit::Share}};
}

void addEfficiencyCells(ResultRow& row, const std::vector<NameEfficiency>* names, StringId name) {
    const NameEfficiency* n = nullptr;
    if (names) {
        const auto it =
            std::lower_bound(names->begin(), names->end(), name,
                             [](const NameEfficiency& e, StringId id) { return e.name < id; });
        if (it != names->end() && it->name == name && it->time > 0) n = &*it;
    }
    if (!n) {
        row.cells.insert(row.cells.end(), {ResultCell(), ResultCell()});
        return;
    }
    const double seconds = static_cast<double>(n->time) * 1e-9;
    row.cells.push_back(n->flops / seconds / 1e12);
    row.cells.push_back(n->boundTime > 0
                            ? ResultCell(n->boundNs / static_cast<double>(n->boundTime))
                            : ResultCell());
}

ResultTable kernelTable(const Trace& t, const std::vector<KernelStats>& kernels, bool byDevice,
                        const EfficiencyResult* efficiency) {
    ResultTable table;
    table.id = "kernels";
    table.title = "Kernels";
    // The device's column is always there (a table's columns do not depend
    // on the options), empty and left out of readable views unless by device.
    ResultColumn device{"device", "GPU", Unit::Count};
    device.sparse = true;
    table.columns.push_back(device);
    table.columns.insert(table.columns.end(),
                         {symbolColumn("name", "Kernel"),
                          {"count", "Count", Unit::Count},
                          {"total_ns", "Total", Unit::Duration},
                          {"mean_ns", "Mean", Unit::Duration},
                          {"min_ns", "Min", Unit::Duration},
                          {"max_ns", "Max", Unit::Duration},
                          {"median_ns", "Median", Unit::Duration},
                          {"p95_ns", "p95", Unit::Duration},
                          {"stddev_ns", "Std dev", Unit::Duration},
                          {"share_of_kernel_time", "Of kernel time", Unit::Share},
                          {"share_of_busy_time", "Of busy time", Unit::Share},
                          {"tensor_cores", "Tensor Cores", Unit::Flag},
                          {"launched_by", "Launched by", Unit::Text},
                          {"communication", "Communication", Unit::Flag},
                          {"streams", "Streams", Unit::Text},
                          {"launch.grid", "Grid", Unit::Text},
                          {"launch.block", "Block", Unit::Text},
                          {"launch.registers_per_thread", "Registers", Unit::Count},
                          {"launch.shared_memory_bytes", "Shared memory", Unit::Bytes},
                          {"launch.occupancy_percent", "Occupancy %", Unit::Number}});
    for (const ResultColumn& c : efficiencyColumns())
        table.columns.push_back(c);
    for (const KernelStats& k : kernels) {
        ResultRow r;
        r.cells.push_back(byDevice ? ResultCell(int64_t{k.device}) : ResultCell());
        const std::optional<LaunchParams>& l = k.launch;
        auto triple = [](const int32_t(&v)[3]) { return std::vector<int64_t>{v[0], v[1], v[2]}; };
        r.cells.insert(r.cells.end(),
                       {std::string(t.str(k.name)),
                        static_cast<int64_t>(k.count),
                        k.total,
                        k.mean,
                        k.min,
                        k.max,
                        k.median,
                        k.p95,
                        cellOf(k.stddev),
                        k.shareOfKernelTime,
                        k.shareOfBusyTime,
                        k.tensorCores == TensorCoreUse::Unknown
                            ? ResultCell()
                            : ResultCell(int64_t{k.tensorCores == TensorCoreUse::Yes}),
                        k.launchedBy ? ResultCell(std::string(t.str(*k.launchedBy))) : ResultCell(),
                        int64_t{k.communication},
                        k.streams,
                        l ? ResultCell(triple(l->grid)) : ResultCell(),
                        l ? ResultCell(triple(l->block)) : ResultCell(),
                        l && l->registersPerThread >= 0 ? ResultCell(int64_t{l->registersPerThread})
                                                        : ResultCell(),
                        l && l->sharedMemory >= 0 ? ResultCell(l->sharedMemory) : ResultCell(),
                        l && l->occupancyPercent >= 0 ? ResultCell(double{l->occupancyPercent})
                                                      : ResultCell()});
        // Per name over every GPU: a row of one device leaves them to the name's rows.
        addEfficiencyCells(r, efficiency && !byDevice ? &efficiency->kernelNames : nullptr, k.name);
        r.ref.kind = ResultRef::Kind::Name;
        r.ref.name = k.name;
        r.ref.slice = k.firstSlice;
        table.rows.push_back(std::move(r));
    }
    return table;
}

ResultTable copyTable(const Trace& t, const std::vector<CopyStats>& copies) {
    ResultTable table;
    table.id = "copies";
    table.title = "Copies and memsets";
    table.columns = {{"device", "GPU", Unit::Count},
                     {"kind", "Kind", Unit::Text},
                     {"name", "Name", Unit::Text},
                     {"direction", "Direction", Unit::Text},
                     {"memory", "Host memory", Unit::Text},
                     {"count", "Count", Unit::Count},
                     {"total_ns", "Total", Unit::Duration},
                     {"bytes", "Size", Unit::Bytes},
                     {"bandwidth_gbps", "GB/s", Unit::Number, 2}};
    for (const CopyStats& c : copies) {
        ResultRow r;
        const char* memory = c.memory == HostMemory::Pageable ? "pageable"
                             : c.memory == HostMemory::Pinned ? "pinned"
                                                              : nullptr;
        r.cells = {
            int64_t{c.device},
            std::string(c.kind == ActivityKind::Memset ? "memset" : "memcpy"),
            std::string(t.str(c.name)),
            c.direction ? ResultCell(std::string(copyDirectionName(*c.direction))) : ResultCell(),
            memory ? ResultCell(std::string(memory)) : ResultCell(),
            static_cast<int64_t>(c.count),
            c.total,
            cellOf(c.bytes),
            cellOf(c.bandwidthGBps)};
        r.ref.kind = ResultRef::Kind::Name;
        r.ref.name = c.name;
        r.ref.slice = c.longestSlice;
        table.rows.push_back(std::move(r));
    }
    return table;
}

}  // namespace gapscope
