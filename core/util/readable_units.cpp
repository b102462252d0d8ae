#include "util/readable_units.h"

#include <cmath>
#include <cstdio>

namespace gapscope {

std::string readableDuration(TimeNs ns) {
    char buf[64];
    // Unsigned: the magnitude of INT64_MIN does not fit an int64.
    const uint64_t magnitude = ns < 0 ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
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
        return buf;
    }
    static constexpr struct {
        double size;
        const char* format;
        double digits;  // 10 for one decimal, 100 for two
    } kUnits[] = {{1024.0, "%.1f KiB", 10},
                  {1024.0 * 1024, "%.1f MiB", 10},
                  {1024.0 * 1024 * 1024, "%.2f GiB", 100}};
    size_t u = a < 1024.0 * 1024 ? 0 : a < 1024.0 * 1024 * 1024 ? 1 : 2;
    // What would print as 1024.0 KiB is 1.0 MiB.
    while (u < 2 && std::round(a / kUnits[u].size * kUnits[u].digits) >= 1024 * kUnits[u].digits)
        ++u;
    std::snprintf(buf, sizeof buf, kUnits[u].format, bytes / kUnits[u].size);
    return buf;
}

std::string readableCount(int64_t count) {
    const uint64_t magnitude =
        count < 0 ? 0 - static_cast<uint64_t>(count) : static_cast<uint64_t>(count);
    std::string digits = std::to_string(magnitude);
    for (size_t i = digits.size(); i > 3; i -= 3)
        digits.insert(i - 3, "\u2009");
    return count < 0 ? "-" + digits : digits;
}

std::string readablePercent(double share) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f %%", share * 100);
    return buf;
}

}  // namespace gapscope
