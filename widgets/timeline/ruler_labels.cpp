#include "timeline/ruler_labels.h"

#include <algorithm>
#include <numeric>

namespace gapscope::ui {

namespace {

bool clashes(const QRectF& r, const std::vector<RulerLabel>& placed) {
    return std::any_of(placed.begin(), placed.end(),
                       [&](const RulerLabel& p) { return p.rect.intersects(r); });
}

}  // namespace

std::vector<RulerLabel> layoutRulerLabels(const RulerLabelInputs& in, const QFontMetricsF& fm) {
    std::vector<RulerLabel> out;
    const double flagHeight = fm.height() + 2;
    // A ruler tall enough for two lanes keeps the flags above the ticks,
    // so that no tick label gives way to a flag.
    const double lane = in.height >= rulerLaneHeight(fm) + flagHeight + 1 ? flagHeight + 1 : 0;
    const double textTop = in.top + lane + 3;
    // Flags, left to right: each ends before the next one starts (at least
    // its colour tab stays), and none runs past the right edge.
    std::vector<size_t> order(in.flags.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return in.flags[a].x0 < in.flags[b].x0; });
    for (size_t k = 0; k < order.size(); ++k) {
        const RulerFlag& f = in.flags[order[k]];
        const double x0 = std::clamp(f.x0, in.left, in.right);
        double limit = in.right;
        if (k + 1 < order.size()) limit = std::min(limit, in.flags[order[k + 1]].x0);
        double width = f.x1 > f.x0 ? std::min(f.x1, in.right) - x0
                                   : fm.horizontalAdvance(f.text) + 2 * kFlagPad;
        width = std::max(2.0, std::min(width, limit - x0 - 1));
        const QString text = fm.elidedText(f.text, Qt::ElideRight, width - 2 * kFlagPad);
        out.push_back(
            {RulerLabel::Kind::Flag, QRectF(x0, in.top + 1, width, flagHeight), text, order[k]});
    }
    const double textHeight = in.height - lane - 6;
    if (!in.note.isEmpty()) {
        const double w = fm.horizontalAdvance(in.note) + 12;
        const QRectF box(in.right - w - 4, textTop, w, textHeight);
        if (box.left() >= in.left && !clashes(box, out))
            out.push_back({RulerLabel::Kind::Note, box, in.note, 0});
    }
    // A range outside the view has no label here.
    if (in.range && !in.rangeText.isEmpty() && in.range->second >= in.left &&
        in.range->first <= in.right) {
        const double w = fm.horizontalAdvance(in.rangeText) + 8;
        const double a = std::max(in.range->first, in.left),
                     b = std::min(in.range->second, in.right);
        auto at = [&](double x) { return QRectF(x, textTop, w, textHeight); };
        // Centred on the range, else beside what is in the way, inside the ruler.
        std::vector<double> tries = {(a + b - w) / 2};
        for (const RulerLabel& p : out) {
            tries.push_back(p.rect.right() + 2);
            tries.push_back(p.rect.left() - w - 2);
        }
        for (double x : tries) {
            x = std::clamp(x, in.left, in.right - w);
            if (x < in.left) break;  // narrower than the label
            if (!clashes(at(x), out)) {
                out.push_back({RulerLabel::Kind::Range, at(x), in.rangeText, 0});
                break;
            }
        }
    }
    double lastTickEnd = -1e300;
    for (size_t i = 0; i < in.ticks.size(); ++i) {
        const RulerTick& t = in.ticks[i];
        const double w = fm.horizontalAdvance(t.text);
        QRectF r(t.x + kTickGap, textTop, w, textHeight);
        if (r.right() > in.right) r.moveRight(in.right);  // whole, not cut at the edge
        if (r.left() < in.left || r.left() < lastTickEnd + kTickGap || clashes(r, out)) continue;
        out.push_back({RulerLabel::Kind::Tick, r, t.text, i});
        lastTickEnd = r.right();
    }
    return out;
}

}  // namespace gapscope::ui
