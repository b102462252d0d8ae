#include "panels/text_widths.h"

#include <cmath>

namespace gapscope::ui {

TextWidths::TextWidths(const QFont& font) : fm_(font), fmF_(font) {
    for (char16_t c = 32; c < 127; ++c)
        ascii_[c] = fmF_.horizontalAdvance(QChar(c));
}

int TextWidths::operator()(const QString& text) const {
    qreal sum = 0;
    for (const QChar ch : text) {
        const char16_t c = ch.unicode();
        if (c >= 32 && c < 127) {
            sum += ascii_[c];
        } else if (c < 32 || ch.isSurrogate() || ch.isMark()) {
            return fm_.horizontalAdvance(text);
        } else {
            auto it = other_.find(c);
            if (it == other_.end()) it = other_.insert(c, fmF_.horizontalAdvance(ch));
            sum += *it;
        }
    }
    return static_cast<int>(std::ceil(sum * 1.02)) + 1;
}

}  // namespace gapscope::ui
