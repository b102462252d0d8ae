#include "util/readable_units.h"

#include <cmath>
#include <cstdio>

namespace gapscope {

namespace {

// The one ladder of duration units.
struct DurationUnit {
    uint64_t ns;
    const char* suffix;
};
constexpr DurationUnit kDurationUnits[] = {
    {1, "ns"}, {1000, "µs"}, {1000000, "ms"}, {1000000000, "s"}};

size_t unitOf(uint64_t magnitude) {
    return magnitude < 1000 ? 0 : magnitude < 1000000 ? 1 : magnitude < 1000000000 ? 2 : 3;
}

// Decimals of a value in `unit` that keep `resolution` visible; without a
// resolution two (none for ns).
int decimalsOf(uint64_t unit, TimeNs resolution) {
    if (resolution <= 0) return unit == 1 ? 0 : 2;
    int d = 0;
    for (uint64_t r = unit; r > static_cast<uint64_t>(resolution) && d < 9; r /= 10)
        ++d;
    return d;
}

// Unsigned: the magnitude of INT64_MIN does not fit an int64.
uint64_t magnitudeOf(TimeNs ns) {
    return ns < 0 ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
}

std::string inUnit(TimeNs ns, size_t u, int decimals) {
    char buf[64];
    if (kDurationUnits[u].ns == 1 && decimals == 0)
        std::snprintf(buf, sizeof buf, "%lld ns", static_cast<long long>(ns));
    else
        std::snprintf(buf, sizeof buf, "%.*f %s", decimals,
                      static_cast<double>(ns) / static_cast<double>(kDurationUnits[u].ns),
                      kDurationUnits[u].suffix);
    return buf;
}

}  // namespace

std::string readableDuration(TimeNs ns) {
    return readableDuration(ns, 0);
}

std::string readableDuration(TimeNs ns, TimeNs resolution) {
    const uint64_t magnitude = magnitudeOf(ns);
    size_t u = unitOf(magnitude);
    int decimals = decimalsOf(kDurationUnits[u].ns, resolution);
    // What rounds to 1000 of a unit belongs to the next (999.996 µs is "1.00 ms").
    const auto scaled = [&] {
        return std::llround(static_cast<double>(magnitude) /
                            static_cast<double>(kDurationUnits[u].ns) * std::pow(10, decimals));
    };
    if (u < 3 && scaled() >= std::llround(1000 * std::pow(10, decimals))) {
        ++u;
        decimals = decimalsOf(kDurationUnits[u].ns, resolution);
    }
    return inUnit(ns, u, decimals);
}

std::string readableOffset(TimeNs relative, TimeNs step) {
    const size_t u = unitOf(magnitudeOf(step));
    return inUnit(relative, u, decimalsOf(kDurationUnits[u].ns, step));
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
