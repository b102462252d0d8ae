#pragma once
// Colours of the timeline, derived from the application palette (light or
// dark, following the system), and stable per-name slice colours.

#include <QColor>
#include <QPalette>
#include <QString>
#include <string_view>
#include <vector>

#include "model/trace.h"

namespace gapscope::ui {

struct TimelineColors {
    bool dark = false;
    QColor background, alternateBackground, header, headerText, gutter, gutterText, grid, text;
    QColor rankHeader;  // a rank's header (ranks of a job in one trace): above its processes'
    QColor gapFill, gapEdge, gapHeader;  // GPU idle gaps
    QColor selection, rangeFill, rangeEdge, hover, searchMatch, flow, counterLine, counterFill;

    static TimelineColors fromPalette(const QPalette& palette);
};

// Slice colour by name: the same name gets the same colour in every session.
class NameColors {
  public:
    void reset(const Trace* trace, bool dark);
    QColor color(StringId name);
    static QColor forText(std::string_view name, bool dark);
    // Readable label colour on top of `fill`.
    static QColor textOn(QColor fill);
    // A kernel's label on the timeline: its short name, as the tables show
    // it ("at::native::vectorized_elementwise_kernel", not "void at::…<4,
    // …>(int, …)"); the whole name is the tooltip's and the Details'.
    const QString& kernelLabel(StringId name);

  private:
    const Trace* trace_ = nullptr;
    bool dark_ = false;
    std::vector<QRgb> cache_;  // 0 = not computed yet
    std::vector<QString> kernelLabels_;
    std::vector<bool> hasKernelLabel_;
};

}  // namespace gapscope::ui
