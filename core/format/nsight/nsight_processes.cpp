#include "format/nsight/nsight_processes.h"

#include <algorithm>
#include <map>

namespace gapscope {

std::vector<NsightProcess> nsightCudaProcesses(const sqlite::Database& db) {
    const char* contexts = "TARGET_INFO_CUDA_CONTEXT_INFO";
    if (!db.hasColumn(contexts, "processId") || !db.hasColumn(contexts, "deviceId")) return {};
    // Each process's work is told apart by its rows' globalPid.
    for (const char* gpu :
         {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"})
        if (db.hasTable(gpu) && !db.hasColumn(gpu, "globalPid")) return {};
    // A job has a handful of processes; a hostile table of millions of
    // contexts is read no further than this.
    constexpr size_t kMostProcesses = 1 << 12;
    std::map<int64_t, NsightProcess> processes;
    sqlite::Rows rows = db.select(contexts, {"processId", "deviceId"});
    while (rows.next()) {
        if (!rows.isInteger(0)) continue;
        const int64_t pid = rows.integer(0);
        if (!processes.count(pid) && processes.size() == kMostProcesses) break;
        NsightProcess& p = processes[pid];
        p.pid = pid;
        if (rows.isInteger(1)) p.devices.push_back(rows.integer(1));
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
        std::sort(p.devices.begin(), p.devices.end());
        p.devices.erase(std::unique(p.devices.begin(), p.devices.end()), p.devices.end());
        out.push_back(std::move(p));
    }
    return out;
}

}  // namespace gapscope
