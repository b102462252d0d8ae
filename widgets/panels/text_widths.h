#pragma once
// Text widths for fitting table columns, summed from a table of character
// advances: shaping every sampled name (CUDA kernel names run to hundreds of
// characters) took 8 ms of GUI time for the Kernels table. The advances are
// fractional (rounding each one lost a pixel in a dozen characters); without
// kerning the sum can still be a little off, so 2 % + 1 px is added. Text
// with combining marks, surrogates or controls is measured properly.

#include <QFontMetrics>
#include <QHash>
#include <QString>

namespace gapscope::ui {

class TextWidths {
  public:
    explicit TextWidths(const QFont& font);
    int operator()(const QString& text) const;

  private:
    QFontMetrics fm_;
    QFontMetricsF fmF_;
    qreal ascii_[128] = {};
    mutable QHash<char16_t, qreal> other_;  // µ, ×, …: measured once each
};

}  // namespace gapscope::ui
