#include "compare/view_link.h"

#include <algorithm>

namespace gapscope::ui {

namespace {
TimeWindow movedBy(TimeWindow w, TimeNs by) {
    return {w.start + by, w.end + by};
}
TimeWindow hullOf(TimeWindow a, TimeWindow b) {
    return {std::min(a.start, b.start), std::max(a.end, b.end)};
}
}  // namespace

ViewLink::ViewLink(ViewState* first, ViewState* second, QObject* parent)
    : QObject(parent), first_(first), second_(second) {
    connect(first_, &ViewState::visibleChanged, this,
            [this](TimeWindow) { follow(first_, second_, offset_); });
    connect(second_, &ViewState::visibleChanged, this,
            [this](TimeWindow) { follow(second_, first_, -offset_); });
}

void ViewLink::link(TimeWindow firstSpan, TimeWindow secondSpan, TimeNs offset) {
    offset_ = offset;
    linked_ = true;
    // Either run scrolls as far as the other reaches, so the windows keep one span.
    following_ = true;
    first_->setBounds(hullOf(firstSpan, movedBy(secondSpan, -offset)));
    second_->setBounds(hullOf(secondSpan, movedBy(firstSpan, offset)));
    following_ = false;
    follow(first_, second_, offset_);
}

void ViewLink::unlink() {
    linked_ = false;
}

void ViewLink::follow(ViewState* from, ViewState* to, TimeNs shift) {
    if (!linked_ || following_) return;
    following_ = true;
    to->setVisible(movedBy(from->visible(), shift), ViewState::History::None);
    following_ = false;
}

}  // namespace gapscope::ui
