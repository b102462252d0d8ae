#include "timeline/timeline_colors.h"

#include "util/symbol_names.h"

namespace gapscope::ui {

TimelineColors TimelineColors::fromPalette(const QPalette& p) {
    TimelineColors c;
    const QColor base = p.color(QPalette::Base);
    c.dark = base.lightness() < 128;
    c.background = base;
    c.alternateBackground = c.dark ? base.lighter(112) : base.darker(103);
    c.header = p.color(QPalette::Window);
    c.headerText = p.color(QPalette::WindowText);
    c.rankHeader = c.dark ? c.header.lighter(135) : c.header.darker(112);
    c.gutter =
        c.dark ? p.color(QPalette::Window).darker(110) : p.color(QPalette::Window).lighter(104);
    c.gutterText = p.color(QPalette::Text);
    c.grid = c.dark ? QColor(255, 255, 255, 22) : QColor(0, 0, 0, 20);
    c.text = p.color(QPalette::Text);
    // Idle gaps: a warm, translucent wash that reads as "nothing ran here".
    c.gapFill = c.dark ? QColor(255, 120, 60, 54) : QColor(235, 80, 30, 40);
    c.gapEdge = c.dark ? QColor(255, 140, 80, 150) : QColor(215, 70, 20, 140);
    c.gapHeader = c.dark ? QColor(255, 120, 60, 150) : QColor(230, 85, 30, 150);
    c.selection = p.color(QPalette::Highlight);
    c.rangeFill = QColor(c.selection.red(), c.selection.green(), c.selection.blue(), 40);
    c.rangeEdge = c.selection;
    c.hover = c.dark ? QColor(255, 255, 255, 60) : QColor(0, 0, 0, 40);
    c.searchMatch = QColor(255, 200, 0);
    c.flow = c.dark ? QColor(120, 200, 255) : QColor(20, 90, 200);
    c.counterLine = c.dark ? QColor(110, 190, 140) : QColor(30, 130, 80);
    c.counterFill = QColor(c.counterLine.red(), c.counterLine.green(), c.counterLine.blue(), 70);
    return c;
}

void NameColors::reset(const Trace* trace, bool dark) {
    trace_ = trace;
    dark_ = dark;
    cache_.assign(trace ? trace->strings.size() : 0, 0);
    kernelLabels_.assign(cache_.size(), QString());
    hasKernelLabel_.assign(cache_.size(), false);
}

const QString& NameColors::kernelLabel(StringId name) {
    static const QString none;
    if (name >= kernelLabels_.size()) return none;
    if (!hasKernelLabel_[name]) {
        kernelLabels_[name] = QString::fromStdString(shortSymbolName(trace_->str(name)));
        hasKernelLabel_[name] = true;
    }
    return kernelLabels_[name];
}

QColor NameColors::forText(std::string_view name, bool dark) {
    uint32_t h = 2166136261u;
    for (char ch : name)
        h = (h ^ static_cast<unsigned char>(ch)) * 16777619u;
    const int hue = static_cast<int>(h % 360);
    const int sat = 110 + static_cast<int>((h >> 9) % 70);
    const int light =
        dark ? 105 + static_cast<int>((h >> 17) % 30) : 160 + static_cast<int>((h >> 17) % 40);
    return QColor::fromHsl(hue, sat, light);
}

QColor NameColors::color(StringId name) {
    if (name >= cache_.size()) return forText({}, dark_);
    if (cache_[name] == 0) cache_[name] = forText(trace_->str(name), dark_).rgb() | 0xff000000u;
    return QColor::fromRgb(cache_[name]);
}

QColor NameColors::textOn(QColor fill) {
    const double luminance = 0.299 * fill.redF() + 0.587 * fill.greenF() + 0.114 * fill.blueF();
    return luminance > 0.55 ? QColor(20, 20, 20) : QColor(245, 245, 245);
}

}  // namespace gapscope::ui
