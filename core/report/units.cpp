#include "report/units.h"

#include <cstdio>

namespace gapscope {

std::string readableDuration(TimeNs ns) {
    char buf[64];
    const double v = static_cast<double>(ns);
    if (ns < 1000) {
        std::snprintf(buf, sizeof buf, "%lld ns", static_cast<long long>(ns));
    } else if (ns < 1000000) {
        std::snprintf(buf, sizeof buf, "%.2f µs", v / 1e3);
    } else if (ns < 1000000000) {
        std::snprintf(buf, sizeof buf, "%.2f ms", v / 1e6);
    } else {
        std::snprintf(buf, sizeof buf, "%.3f s", v / 1e9);
    }
    return buf;
}

std::string readableBytes(uint64_t b) {
    char buf[64];
    const double v = static_cast<double>(b);
    if (b < 1024) {
        std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(b));
    } else if (b < (1u << 20)) {
        std::snprintf(buf, sizeof buf, "%.1f KiB", v / 1024);
    } else if (b < (1u << 30)) {
        std::snprintf(buf, sizeof buf, "%.1f MiB", v / (1 << 20));
    } else {
        std::snprintf(buf, sizeof buf, "%.2f GiB", v / (1 << 30));
    }
    return buf;
}

}  // namespace gapscope
