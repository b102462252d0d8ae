#include "format/nsight/nsight_processes.h"

#include <map>
#include <set>

namespace gapscope {

std::vector<NsightProcess> nsightCudaProcesses(const sqlite::Database& db) {
    const char* contexts = "TARGET_INFO_CUDA_CONTEXT_INFO";
    if (!db.hasColumn(contexts, "processId") || !db.hasColumn(contexts, "deviceId")) return {};
    // Each process's work is told apart by its rows' globalPid.
    for (const char* gpu :
         {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"})
        if (db.hasTable(gpu) && !db.hasColumn(gpu, "globalPid")) return {};
    // One row per context: a job has a handful. Each rank re-reads the
    // whole export for its part, so a report of more processes than a
    // node's GPUs hold ranks is read as one trace, and a hostile table of
    // millions of contexts is read no further than that.
    constexpr size_t kMostProcesses = 256;
    constexpr uint64_t kMostContexts = 1 << 16;
    std::map<int64_t, NsightProcess> processes;
    std::map<int64_t, std::set<int64_t>> devices;
    sqlite::Rows rows = db.select(contexts, {"processId", "deviceId"});
    for (uint64_t read = 0; rows.next() && read < kMostContexts; ++read) {
        if (!rows.isInteger(0)) continue;
        const int64_t pid = rows.integer(0);
        if (!processes.count(pid) && processes.size() == kMostProcesses) return {};
        processes[pid].pid = pid;
        if (rows.isInteger(1)) devices[pid].insert(rows.integer(1));
    }
    if (db.hasColumn("PROCESSES", "pid") && db.hasColumn("PROCESSES", "name")) {
        sqlite::Rows names = db.select("PROCESSES", {"pid", "name"});
        while (names.next()) {
            const auto it = processes.find(names.integer(0));
            if (it != processes.end() && it->second.name.empty() && !names.isNull(1))
                it->second.name = std::string(names.text(1).substr(0, 256));
        }
    }
    std::vector<NsightProcess> out;
    for (auto& [pid, p] : processes) {
        p.devices.assign(devices[pid].begin(), devices[pid].end());
        out.push_back(std::move(p));
    }
    return out;
}

}  // namespace gapscope
