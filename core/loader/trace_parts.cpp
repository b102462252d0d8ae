#include "loader/trace_parts.h"

#include <fcntl.h>
#include <unistd.h>

#include "format/nsight/nsight_processes.h"
#include "format/nsight/sqlite_db.h"
#include "util/load_error.h"
#include "util/unique_fd.h"

namespace gapscope {

namespace {

bool isSqliteFile(const std::string& path) {
    const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    char head[16];
    return fd.valid() && ::pread(fd.get(), head, sizeof head, 0) == sizeof head &&
           std::string_view(head, sizeof head) == sqlite::kHeader;
}

}  // namespace

std::vector<TracePart> tracePartsOf(const std::string& path) {
    if (!isSqliteFile(path)) return {};
    std::vector<NsightProcess> processes;
    try {
        processes = nsightCudaProcesses(sqlite::Database::openFile(path, nullptr));
    } catch (const LoadError&) {
        return {};  // the load reads it whole and says what is wrong
    }
    if (processes.size() < 2) return {};
    std::vector<TracePart> parts;
    for (const NsightProcess& p : processes) {
        TracePart part;
        part.pid = p.pid;
        part.label = "process " + std::to_string(p.pid);
        if (!p.name.empty()) part.label += " (" + p.name + ")";
        if (parts.empty()) {
            part.processes.allBut = true;
            for (const NsightProcess& other : processes)
                if (other.pid != p.pid) part.processes.pids.push_back(other.pid);
        } else {
            part.processes.pids = {p.pid};
        }
        parts.push_back(std::move(part));
    }
    return parts;
}

}  // namespace gapscope
