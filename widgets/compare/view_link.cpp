#include "compare/view_link.h"

#include <algorithm>
#include <cmath>

namespace gapscope::ui {

namespace {
TimeWindow hullOf(TimeWindow a, TimeWindow b) {
    return {std::min(a.start, b.start), std::max(a.end, b.end)};
}
// In long double: trace times are ~1e18 ns, past a double's exact integers;
// held within int64's range (a far bound through a steep line).
TimeNs mapped(TimeNs t, TimeNs from, TimeNs to, long double scale) {
    constexpr long double kLimit = 4e18L;
    const long double v = static_cast<long double>(to) +
                          (static_cast<long double>(t) - static_cast<long double>(from)) * scale;
    return static_cast<TimeNs>(std::llround(std::clamp(v, -kLimit, kLimit)));
}
// A line steeper or flatter than this says nothing a person can read (a
// zero-length slice fitted against a long one): held there.
constexpr double kMaxScale = 1e6;
}  // namespace

TimeNs LinkMapping::toSecond(TimeNs first) const {
    return mapped(first, firstAt, secondAt, scale);
}
TimeNs LinkMapping::toFirst(TimeNs second) const {
    return mapped(second, secondAt, firstAt, 1.0L / static_cast<long double>(scale));
}
TimeWindow LinkMapping::toSecond(TimeWindow w) const {
    return {toSecond(w.start), toSecond(w.end)};
}
TimeWindow LinkMapping::toFirst(TimeWindow w) const {
    return {toFirst(w.start), toFirst(w.end)};
}

ViewLink::ViewLink(ViewState* first, ViewState* second, QObject* parent)
    : QObject(parent), first_(first), second_(second) {
    connect(first_, &ViewState::visibleChanged, this,
            [this](TimeWindow) { follow(first_, second_, true); });
    connect(second_, &ViewState::visibleChanged, this,
            [this](TimeWindow) { follow(second_, first_, false); });
}

void ViewLink::link(TimeWindow firstSpan, TimeWindow secondSpan, LinkMapping mapping) {
    if (!(mapping.scale > 0) || !std::isfinite(mapping.scale)) mapping.scale = 1;
    mapping.scale = std::clamp(mapping.scale, 1 / kMaxScale, kMaxScale);
    mapping_ = mapping;
    linked_ = true;
    // Either run scrolls as far as the other reaches, so the windows keep one span.
    following_ = true;
    first_->setBounds(hullOf(firstSpan, mapping_.toFirst(secondSpan)));
    second_->setBounds(hullOf(secondSpan, mapping_.toSecond(firstSpan)));
    following_ = false;
    follow(first_, second_, true);
}

void ViewLink::unlink() {
    linked_ = false;
}

void ViewLink::follow(ViewState* from, ViewState* to, bool toSecond) {
    if (!linked_ || following_) return;
    following_ = true;
    const TimeWindow w = from->visible();
    to->setVisible(toSecond ? mapping_.toSecond(w) : mapping_.toFirst(w), ViewState::History::None);
    following_ = false;
}

}  // namespace gapscope::ui
