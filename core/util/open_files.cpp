#include "util/open_files.h"

#include <sys/resource.h>

#include <cerrno>
#include <mutex>

namespace gapscope {

void makeRoomForOpenFiles(size_t wanted) {
    // (Read and raised under one lock: two loads at once never lower it.)
    static std::mutex mutex;
    const std::lock_guard lock(mutex);
    struct rlimit limit {};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY ||
        limit.rlim_cur >= wanted)
        return;
    // The hard limit, not just `wanted`: files other than the ranks' (each
    // loading thread's, the viewer's) are open beside them.
    struct rlimit raised = limit;
    raised.rlim_cur =
        limit.rlim_max == RLIM_INFINITY ? static_cast<rlim_t>(wanted) : limit.rlim_max;
    // (Refused past the kernel's own cap, fs.nr_open: kept as it was.)
    if (raised.rlim_cur > limit.rlim_cur) ::setrlimit(RLIMIT_NOFILE, &raised);
}

std::string openFilesHint(int error) {
    if (error == ENFILE) return "the system's table of open files is full (`sysctl fs.file-max`)";
    struct rlimit limit {};
    if (error != EMFILE || ::getrlimit(RLIMIT_NOFILE, &limit) != 0 ||
        limit.rlim_cur == RLIM_INFINITY)
        return {};
    return "this process may have " + std::to_string(limit.rlim_cur) +
           " files open at once, and a job keeps each rank's file open: raise `ulimit -n`" +
           (limit.rlim_max != RLIM_INFINITY && limit.rlim_max <= limit.rlim_cur
                ? " and its hard limit (`ulimit -Hn`, /etc/security/limits.conf)"
                : "");
}

}  // namespace gapscope
