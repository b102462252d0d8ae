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
