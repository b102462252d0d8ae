#include "panels/units.h"

#include <cmath>
#include <utility>

namespace gapscope::ui {

namespace {

// Three significant digits: 1.23, 12.3, 123.
QString threeDigits(double v) {
    const double a = std::abs(v);
    const int decimals = a >= 100 ? 0 : a >= 10 ? 1 : 2;
    return QString::number(v, 'f', decimals);
}

}  // namespace

QString shortDuration(TimeNs ns) {
    static constexpr std::pair<double, const char*> kUnits[] = {
        {1, "ns"}, {1e3, "µs"}, {1e6, "ms"}, {1e9, "s"}};
    const double v = static_cast<double>(ns);
    if (std::abs(v) < 1e3) return QStringLiteral("%1 ns").arg(ns);
    size_t u = std::abs(v) < 1e6 ? 1 : std::abs(v) < 1e9 ? 2 : 3;
    // 999.96 µs must not print as "1000 µs": move up a unit when rounding gets there.
    if (u < 3 && threeDigits(v / kUnits[u].first).remove('-').startsWith(QLatin1String("1000")))
        ++u;
    return threeDigits(v / kUnits[u].first) + QChar(' ') + QString::fromUtf8(kUnits[u].second);
}

QString formatBytes(double bytes) {
    const double a = std::abs(bytes);
    if (a < 1024) return QStringLiteral("%1 B").arg(static_cast<qint64>(std::llround(bytes)));
    if (a < 1024.0 * 1024) return threeDigits(bytes / 1024) + QStringLiteral(" KiB");
    if (a < 1024.0 * 1024 * 1024)
        return threeDigits(bytes / (1024.0 * 1024)) + QStringLiteral(" MiB");
    return threeDigits(bytes / (1024.0 * 1024 * 1024)) + QStringLiteral(" GiB");
}

QString formatPercent(double share) {
    return QString::number(share * 100, 'f', 1) + QStringLiteral(" %");
}

QString groupedInteger(qint64 v) {
    QString digits = QString::number(v < 0 ? -v : v);
    for (qsizetype i = digits.size() - 3; i > 0; i -= 3)
        digits.insert(i, QChar(0x2009));  // thin space
    return v < 0 ? QStringLiteral("-") + digits : digits;
}

QString exactNs(TimeNs ns) {
    return groupedInteger(ns) + QStringLiteral(" ns");
}

QString exactBytes(double bytes) {
    return groupedInteger(static_cast<qint64>(std::llround(bytes))) + QStringLiteral(" bytes");
}

}  // namespace gapscope::ui
