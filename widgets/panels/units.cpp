#include "panels/units.h"

#include <cmath>

#include "util/readable_units.h"

namespace gapscope::ui {

QString shortDuration(TimeNs ns) {
    return QString::fromStdString(readableDuration(ns));
}

QString formatBytes(double bytes) {
    return QString::fromStdString(readableBytes(bytes));
}

QString formatPercent(double share) {
    return QString::fromStdString(readablePercent(share));
}

QString groupedInteger(qint64 v) {
    return QString::fromStdString(readableCount(v));
}

QString exactNs(TimeNs ns) {
    return groupedInteger(ns) + QStringLiteral(" ns");
}

QString exactBytes(double bytes) {
    return groupedInteger(static_cast<qint64>(std::llround(bytes))) + QStringLiteral(" bytes");
}

}  // namespace gapscope::ui
