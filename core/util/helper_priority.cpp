#include "util/helper_priority.h"

#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>

namespace gapscope {

void lowerHelperThreadPriority() noexcept {
#if defined(__linux__)
    // Linux applies a nice value to one thread when given its id. +4: a
    // thread at the usual priority gets about three quarters of a core it
    // shares with such a helper.
    const pid_t self = gettid();
    errno = 0;
    const int now = getpriority(PRIO_PROCESS, static_cast<id_t>(self));
    if (errno == 0) setpriority(PRIO_PROCESS, static_cast<id_t>(self), now + 4);
#endif
}

}  // namespace gapscope
