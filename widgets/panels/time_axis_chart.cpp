#include "panels/time_axis_chart.h"

#include <algorithm>

#include "timeline/timeline_view.h"

namespace gapscope::ui {

std::pair<int, int> TimeAxisChart::plotSpan() const {
    if (area_) {
        const auto [left, w] = area_();
        const int x = mapFromGlobal(QPoint(left, 0)).x();
        return {std::max(x, 0), std::max(1, std::min(w, width() - x))};
    }
    return {TimelineView::kGutterWidth, std::max(1, width() - TimelineView::kGutterWidth - 16)};
}

}  // namespace gapscope::ui
