#include "util/readable_units.h"

#include <cmath>
#include <cstdio>

namespace gapscope {

std::string readableDuration(TimeNs ns) {
    char buf[64];
    const TimeNs magnitude = ns < 0 ? -ns : ns;
    if (magnitude < 1000) {
        std::snprintf(buf, sizeof buf, "%lld ns", static_cast<long long>(ns));
        return buf;
    }
    static constexpr struct {
        double ns;
        const char* suffix;
    } kUnits[] = {{1e3, "µs"}, {1e6, "ms"}, {1e9, "s"}};
    size_t u = magnitude < 1000000 ? 0 : magnitude < 1000000000 ? 1 : 2;
    // Hundredths that round to 1000.00 belong to the next unit.
    while (u < 2 && std::llround(static_cast<double>(magnitude) / kUnits[u].ns * 100) >= 100000)
        ++u;
    std::snprintf(buf, sizeof buf, "%.2f %s", static_cast<double>(ns) / kUnits[u].ns,
                  kUnits[u].suffix);
    return buf;
}

std::string readableBytes(double bytes) {
    char buf[64];
    const double a = std::abs(bytes);
    if (a < 1024) {
        std::snprintf(buf, sizeof buf, "%lld B", static_cast<long long>(std::llround(bytes)));
    } else if (a < 1024.0 * 1024) {
        std::snprintf(buf, sizeof buf, "%.1f KiB", bytes / 1024);
    } else if (a < 1024.0 * 1024 * 1024) {
        std::snprintf(buf, sizeof buf, "%.1f MiB", bytes / (1024.0 * 1024));
    } else {
        std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / (1024.0 * 1024 * 1024));
    }
    return buf;
}

std::string readablePercent(double share) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f %%", share * 100);
    return buf;
}

}  // namespace gapscope
