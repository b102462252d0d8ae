#include "timeline/view_state.h"

#include <algorithm>
#include <chrono>

namespace gapscope::ui {

namespace {
constexpr size_t kMaxHistory = 100;

qint64 steadyMs() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}
}  // namespace

ViewState::ViewState(QObject* parent) : QObject(parent), clock_(&steadyMs) {}

void ViewState::reset(TimeWindow bounds) {
    if (bounds.end <= bounds.start) bounds.end = bounds.start + kMinSpan;
    bounds_ = bounds;
    back_.clear();
    forward_.clear();
    range_.reset();
    slice_ = kNone;
    alsoSelected_.clear();
    if (path_) {
        path_.reset();
        emit pathOverlayChanged();
    }
    lastCoalescedMs_.reset();  // the next gesture starts a new entry
    visible_ = bounds;
    emit visibleChanged(visible_);
    emit selectedRangeChanged();
    emit selectedSliceChanged(slice_);
    emit historyChanged();
}

void ViewState::setBounds(TimeWindow bounds) {
    if (bounds.end <= bounds.start) bounds.end = bounds.start + kMinSpan;
    if (bounds == bounds_) return;
    bounds_ = bounds;
    const TimeWindow w = clampWindow(visible_, bounds_, kMinSpan);
    if (w == visible_) return;
    visible_ = w;
    emit visibleChanged(visible_);
}

void ViewState::record(TimeWindow previous) {
    if (!back_.empty() && back_.back() == previous) return;
    back_.push_back(previous);
    if (back_.size() > kMaxHistory) back_.erase(back_.begin());
    forward_.clear();
    emit historyChanged();
}

void ViewState::setVisible(TimeWindow w, History history) {
    w = clampWindow(w, bounds_, kMinSpan);
    if (w == visible_) return;
    if (history == History::Record) {
        record(visible_);
        lastCoalescedMs_.reset();  // a jump ends the gesture in progress
    } else if (history == History::Coalesce) {
        const qint64 now = clock_();
        if (!lastCoalescedMs_ || now - *lastCoalescedMs_ > kGestureGapMs) record(visible_);
        lastCoalescedMs_ = now;
    }
    visible_ = w;
    emit visibleChanged(visible_);
}

void ViewState::zoomAt(TimeNs anchor, double factor) {
    setVisible(zoomAround(visible_, anchor, factor, bounds_, kMinSpan));
}

void ViewState::panBy(TimeNs delta) {
    setVisible(ui::panBy(visible_, delta, bounds_));
}

void ViewState::fitAll() {
    setVisible(bounds_, History::Record);
}

void ViewState::fit(TimeWindow w) {
    const TimeNs margin = std::max<TimeNs>(w.span() / 20, kMinSpan / 2);
    setVisible({w.start - margin, w.end + margin}, History::Record);
}

void ViewState::goBack() {
    if (back_.empty()) return;
    lastCoalescedMs_.reset();  // navigating after Back is a new entry
    forward_.push_back(visible_);
    visible_ = back_.back();
    back_.pop_back();
    emit visibleChanged(visible_);
    emit historyChanged();
}

void ViewState::goForward() {
    if (forward_.empty()) return;
    lastCoalescedMs_.reset();
    back_.push_back(visible_);
    visible_ = forward_.back();
    forward_.pop_back();
    emit visibleChanged(visible_);
    emit historyChanged();
}

void ViewState::setSelectedRange(std::optional<TimeWindow> range) {
    if (range && range->end < range->start) std::swap(range->start, range->end);
    if (range == range_) return;
    range_ = range;
    emit selectedRangeChanged();
}

void ViewState::setSelectedSlice(uint32_t slice) {
    if (slice == slice_ && alsoSelected_.empty()) return;
    slice_ = slice;
    alsoSelected_.clear();
    emit selectedSliceChanged(slice_);
}

void ViewState::toggleSliceInSelection(uint32_t slice) {
    if (slice == kNone) return;
    if (slice_ == kNone) return setSelectedSlice(slice);
    if (slice == slice_) {  // the primary goes: the next one takes its place
        if (alsoSelected_.empty()) return setSelectedSlice(kNone);
        slice_ = alsoSelected_.front();
        alsoSelected_.erase(alsoSelected_.begin());
    } else if (const auto it = std::find(alsoSelected_.begin(), alsoSelected_.end(), slice);
               it != alsoSelected_.end()) {
        alsoSelected_.erase(it);
    } else {
        alsoSelected_.push_back(slice);
    }
    emit selectedSliceChanged(slice_);
}

std::vector<uint32_t> ViewState::selectedSlices() const {
    std::vector<uint32_t> all;
    if (slice_ != kNone) all.push_back(slice_);
    all.insert(all.end(), alsoSelected_.begin(), alsoSelected_.end());
    return all;
}

void ViewState::setPathDimmed(bool dimmed) {
    if (dimmed == pathDimmed_) return;
    pathDimmed_ = dimmed;
    emit pathOverlayChanged();
}

void ViewState::setPathOverlay(std::shared_ptr<const PathOverlay> path) {
    if (path == path_) return;
    path_ = std::move(path);
    emit pathOverlayChanged();
}

}  // namespace gapscope::ui
