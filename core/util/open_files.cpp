#include "util/open_files.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstdint>

namespace gapscope {

size_t makeRoomForOpenFiles(size_t wanted) {
    struct rlimit limit {};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return 0;
    if (limit.rlim_cur == RLIM_INFINITY) return SIZE_MAX;
    if (limit.rlim_cur < wanted) {
        const rlim_t target = limit.rlim_max == RLIM_INFINITY
                                  ? static_cast<rlim_t>(wanted)
                                  : std::min<rlim_t>(limit.rlim_max, static_cast<rlim_t>(wanted));
        if (target > limit.rlim_cur) {
            struct rlimit raised = limit;
            raised.rlim_cur = target;
            // (Refused past the kernel's own cap, fs.nr_open: kept as it was.)
            if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
        }
    }
    return static_cast<size_t>(limit.rlim_cur);
}

std::string openFilesHint() {
    struct rlimit limit {};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return {};
    return "this process may have " + std::to_string(limit.rlim_cur) +
           " files open at once, and a job keeps each rank's file open: raise `ulimit -n`" +
           (limit.rlim_max != RLIM_INFINITY && limit.rlim_max <= limit.rlim_cur
                ? " and its hard limit (`ulimit -Hn`, /etc/security/limits.conf)"
                : "");
}

}  // namespace gapscope
