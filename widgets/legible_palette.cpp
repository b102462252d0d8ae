#include "legible_palette.h"

#include <algorithm>
#include <cmath>

namespace gapscope::ui {

namespace {

constexpr double kLeastContrast = 3.0;

double luminance(const QColor& c) {
    auto channel = [](double v) {
        return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

// `over` drawn with its alpha on the opaque `base`.
QColor composed(const QColor& over, const QColor& base) {
    const double a = over.alphaF();
    return QColor::fromRgbF(static_cast<float>(over.redF() * a + base.redF() * (1 - a)),
                            static_cast<float>(over.greenF() * a + base.greenF() * (1 - a)),
                            static_cast<float>(over.blueF() * a + base.blueF() * (1 - a)));
}

}  // namespace

double contrastRatio(const QColor& a, const QColor& b) {
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QPalette withLegiblePlaceholder(QPalette palette) {
    for (const auto group : {QPalette::Active, QPalette::Inactive, QPalette::Disabled}) {
        const QColor base = palette.color(group, QPalette::Base);
        const QColor shown = composed(palette.color(group, QPalette::PlaceholderText), base);
        if (contrastRatio(shown, base) >= kLeastContrast) continue;
        // Halfway from the base to the text, then nearer the text until it reads.
        const QColor text = palette.color(group, QPalette::Text);
        for (double t = 0.5; t <= 1.0001; t += 0.05) {
            const QColor c = QColor::fromRgbF(
                static_cast<float>(base.redF() + (text.redF() - base.redF()) * t),
                static_cast<float>(base.greenF() + (text.greenF() - base.greenF()) * t),
                static_cast<float>(base.blueF() + (text.blueF() - base.blueF()) * t));
            palette.setColor(group, QPalette::PlaceholderText, c);
            if (contrastRatio(c, base) >= kLeastContrast) break;
        }
    }
    return palette;
}

}  // namespace gapscope::ui
