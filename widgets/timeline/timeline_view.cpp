#include "timeline/timeline_view.h"

#include <QApplication>
#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QRegularExpression>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "analysis/idle_gaps.h"
#include "analysis/slice_queries.h"
#include "jobs/coalescing_runner.h"
#include "picture/annotation_painter.h"
#include "timeline/path_overlay.h"

namespace gapscope::ui {

struct TimelineView::FrameContent {
    std::shared_ptr<const Trace> trace;
    TimelineLayout layout;
    std::vector<std::vector<Interval>> gaps;
    std::vector<std::vector<QColor>> gapColors;
    std::vector<uint8_t> searchNames;
    std::shared_ptr<const PathOverlay> path;
    bool pathDimmed = false;
    std::vector<Annotation> annotations;
    uint64_t currentAnnotation = 0;
    TimelineColors colors;
    QFont font;
    int gutterWidth = 0;
    uint64_t version = 0;
};

namespace {

QImage drawFrame(const PaintInputs& in, QSize widgetSize, qreal dpr, const QFont& font,
                 const std::vector<Annotation>& annotations, uint64_t currentAnnotation,
                 PaintStats& stats) {
    QImage image(widgetSize * dpr, QImage::Format_RGB32);  // opaque: copied, not blended
    image.setDevicePixelRatio(dpr);
    QPainter p(&image);
    p.setFont(font);  // an image's painter starts with the application's font
    // The strip under the scroll bar, which paintTimeline leaves alone.
    p.fillRect(QRect(in.size.width(), 0, widgetSize.width() - in.size.width(), in.size.height()),
               in.colors.background);
    stats = paintTimeline(p, in);
    if (!annotations.empty()) {
        AnnotationArea area;
        area.trace = in.trace;
        area.layout = in.layout;
        area.scrollY = in.scrollY;
        area.tracks = QRect(QPoint(0, 0), in.size);
        area.gutterWidth = in.gutterWidth;
        area.axis = trackAxis(in);
        area.dark = in.colors.dark;
        area.current = currentAnnotation;
        paintAnnotations(p, area, annotations);
    }
    return image;
}

}  // namespace

PaintInputs TimelineView::inputsFor(const FrameKey& key, const FrameContent& content,
                                    NameColors* names) {
    PaintInputs in;
    in.trace = content.trace.get();
    in.layout = &content.layout;
    in.window = key.window;
    in.gutterWidth = content.gutterWidth;
    in.scrollY = key.scrollY;
    in.size = key.paintSize;
    in.gaps = &content.gaps;
    in.gapColors = &content.gapColors;
    in.searchNames = content.searchNames.empty() ? nullptr : &content.searchNames;
    in.selectedSlice = key.selectedSlice;
    in.alsoSelected = key.alsoSelected;
    in.hoverSlice = key.hoverSlice;
    in.range = key.range;
    in.colors = content.colors;
    in.names = names;
    // A path of another trace (the panel's result came late) is not drawn.
    if (content.path && content.path->trace() == content.trace.get()) in.path = content.path.get();
    in.pathDimmed = content.pathDimmed;
    return in;
}

TimelineView::TimelineView(ViewState* state, QWidget* parent)
    : QWidget(parent),
      state_(state),
      vbar_(new QScrollBar(Qt::Vertical, this)),
      frames_(std::make_unique<CoalescingRunner>(nullptr, CoalescingRunner::Policy::Frames)) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(400, 200);
    colors_ = TimelineColors::fromPalette(palette());
    connect(vbar_, &QScrollBar::valueChanged, this, &TimelineView::updateFrame);
    connect(state_, &ViewState::visibleChanged, this, &TimelineView::updateFrame);
    connect(state_, &ViewState::selectedSliceChanged, this, &TimelineView::updateFrame);
    connect(state_, &ViewState::selectedRangeChanged, this, &TimelineView::updateFrame);
    connect(state_, &ViewState::pathOverlayChanged, this, &TimelineView::contentChanged);
}

TimelineView::~TimelineView() = default;

void TimelineView::updateFrame() {
    // Not the scroll bar's strip: repainting the bar with every frame cost
    // 1-4 ms of GUI time on the test machines.
    update(QRect(0, 0, width() - vbar_->width(), height()));
}

void TimelineView::setGpusOnTop(bool on) {
    if (layout_.gpusOnTop() == on) return;
    layout_.setGpusOnTop(on);
    updateScrollRange();
    contentChanged();
}

void TimelineView::setTrace(std::shared_ptr<const Trace> trace) {
    trace_ = std::move(trace);
    layout_.setTrace(trace_);
    names_.reset(trace_.get(), colors_.dark);
    workerNames_.reset();
    searchNames_.clear();
    gapCauseColors_.clear();  // the new trace's arrive from the panels
    hover_ = kNone;
    vbar_->setValue(0);
    recomputeGaps();
    updateScrollRange();
    contentChanged();
    traceContentVersion_ = contentVersion_;
}

void TimelineView::setGapThreshold(TimeNs ns) {
    gapThreshold_ = std::max<TimeNs>(0, ns);
    gapCauseColors_.clear();  // of the old threshold; the new ones follow
    recomputeGaps();
    contentChanged();
}

void TimelineView::recomputeGaps() {
    gaps_.clear();
    gapColors_.clear();
    if (!trace_) return;
    // The account's caused gaps (computed apart, on a worker), else the
    // busy union's idle gaps until they arrive.
    ShadedGaps shaded =
        shadedGaps(gapCauseColors_.empty() ? idleGapsPerDevice(*trace_, gapThreshold_)
                                           : std::vector<std::vector<Interval>>{},
                   gapCauseColors_);
    gaps_ = std::move(shaded.gaps);
    gapColors_ = std::move(shaded.colours);
}

void TimelineView::setGapCauseColors(GapColorList colors) {
    gapCauseColors_ = std::move(colors);
    recomputeGaps();
    contentChanged();
}

void TimelineView::setAnnotations(std::vector<Annotation> annotations, uint64_t current) {
    if (annotations == annotations_ && current == currentAnnotation_) return;
    annotations_ = std::move(annotations);
    currentAnnotation_ = current;
    contentChanged();
}

void TimelineView::setSearchNames(std::vector<uint8_t> mask) {
    searchNames_ = std::move(mask);
    contentChanged();
}

TimeAxis TimelineView::axis() const {
    return TimeAxis(state_->visible(), width() - kGutterWidth - vbar_->width());
}

void TimelineView::updateScrollRange() {
    vbar_->setGeometry(width() - vbar_->sizeHint().width(), 0, vbar_->sizeHint().width(), height());
    // Pinned rows stay while the rest scrolls, up to half the view.
    layout_.setStickyLimit(height() / 2);
    vbar_->setRange(0, std::max(0, layout_.totalHeight() - height() + 20));
    vbar_->setPageStep(std::max(TimelineLayout::kRowHeight, height() - layout_.pinnedHeight()));
    vbar_->setSingleStep(TimelineLayout::kRowHeight * 3);
}

void TimelineView::resizeEvent(QResizeEvent*) {
    updateScrollRange();
}

void TimelineView::changeEvent(QEvent* e) {
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::StyleChange) {
        colors_ = TimelineColors::fromPalette(palette());
        names_.reset(trace_.get(), colors_.dark);
        workerNames_.reset();
    }
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::StyleChange ||
        e->type() == QEvent::FontChange)
        contentChanged();
    QWidget::changeEvent(e);
}

void TimelineView::contentChanged() {
    ++contentVersion_;
    updateFrame();
}

TimelineView::FrameKey TimelineView::currentKey() const {
    FrameKey key;
    key.window = state_->visible();
    key.scrollY = vbar_->value();
    key.size = size();
    key.paintSize = QSize(width() - vbar_->width(), height());
    key.dpr = devicePixelRatioF();
    key.selectedSlice = state_->selectedSlice();
    key.alsoSelected = state_->alsoSelected();
    key.hoverSlice = hover_;
    key.range = state_->selectedRange();
    key.content = contentVersion_;
    return key;
}

std::shared_ptr<const TimelineView::FrameContent> TimelineView::frameContent() {
    if (!content_ || content_->version != contentVersion_) {
        auto c = std::make_shared<FrameContent>();
        c->trace = trace_;
        c->layout = layout_;
        c->gaps = gaps_;
        c->gapColors = gapColors_;
        c->searchNames = searchNames_;
        c->path = state_->pathOverlay();
        c->pathDimmed = state_->pathDimmed();
        c->annotations = annotations_;
        c->currentAnnotation = currentAnnotation_;
        c->colors = colors_;
        c->font = font();
        c->gutterWidth = kGutterWidth;
        c->version = contentVersion_;
        content_ = std::move(c);
    }
    return content_;
}

bool TimelineView::frameIsCurrent() const {
    return frameKey_ && *frameKey_ == currentKey();
}

void TimelineView::drawFrameNow(const FrameKey& key) {
    const std::shared_ptr<const FrameContent> content = frameContent();
    PaintStats stats;
    QImage image = drawFrame(inputsFor(key, *content, &names_), key.size, key.dpr, content->font,
                             content->annotations, content->currentAnnotation, stats);
    showFrame(key, std::move(image), stats);
}

void TimelineView::requestFrame(const FrameKey& key) {
    if (requestedKey_ == key) return;  // on its way
    requestedKey_ = key;
    if (!workerNames_) {
        workerNames_ = std::make_shared<NameColors>();
        workerNames_->reset(trace_.get(), colors_.dark);
    }
    frames_->submit([this, key, content = frameContent(),
                     names = workerNames_](const CancelToken&) -> std::function<void()> {
        auto stats = std::make_shared<PaintStats>();
        auto image = std::make_shared<QImage>(
            drawFrame(inputsFor(key, *content, names.get()), key.size, key.dpr, content->font,
                      content->annotations, content->currentAnnotation, *stats));
        return [this, key, image, stats] {
            if (key.content < traceContentVersion_) return;  // another trace's
            ++framesDrawnOffThread_;
            showFrame(key, std::move(*image), *stats);
        };
    });
}

void TimelineView::showFrame(const FrameKey& key, QImage image, PaintStats stats) {
    frame_ = std::move(image);
    frameKey_ = key;
    lastStats_ = stats;
    ++framesDrawn_;
    if (requestedKey_ == key) requestedKey_.reset();
    updateFrame();
}

void TimelineView::paintStaleFrame(QPainter& p, const FrameKey& key) const {
    if (frame_.isNull()) {
        p.fillRect(rect(), colors_.background);
        return;
    }
    FrameKey moved = *frameKey_;
    moved.window = key.window;
    moved.scrollY = key.scrollY;
    if (moved != key || frameKey_->window.span() != key.window.span()) {
        p.drawImage(0, 0, frame_);
        return;
    }
    // Only panned or scrolled: the old picture where it now belongs.
    const TimeAxis ax(key.window, key.paintSize.width() - kGutterWidth);
    const double dx =
        static_cast<double>(frameKey_->window.start - key.window.start) * ax.pixelsPerNs();
    const int dy = frameKey_->scrollY - key.scrollY;
    // The pinned rows at the top do not scroll.
    const int pinned = std::min(layout_.pinnedHeight(), height());
    const QRect tracks(kGutterWidth, pinned, key.paintSize.width() - kGutterWidth,
                       height() - pinned);
    p.fillRect(rect(), colors_.background);
    p.save();
    p.setClipRect(tracks);
    p.drawImage(QPointF(dx, dy), frame_);
    p.setClipRect(QRect(0, pinned, kGutterWidth, height() - pinned));
    p.drawImage(QPointF(0, dy), frame_);
    if (pinned > 0) {
        p.setClipRect(QRect(kGutterWidth, 0, key.paintSize.width() - kGutterWidth, pinned));
        p.drawImage(QPointF(dx, 0), frame_);
        p.setClipRect(QRect(0, 0, kGutterWidth, pinned));
        p.drawImage(QPointF(0, 0), frame_);
    }
    p.restore();
}

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    if (!trace_) {
        p.fillRect(rect(), colors_.background);
        return;
    }
    const FrameKey key = currentKey();
    if (!frameKey_ || *frameKey_ != key) {
        // On screen the worker draws, so that the GUI thread only copies
        // frames; a grab() (screenshots, tests) wants this frame at once.
        // Both paint through a redirection: to the backing store's image on
        // screen, to a pixmap for grab().
        const QPaintDevice* target = redirected(nullptr);
        if (target && target->devType() == QInternal::Pixmap) {
            drawFrameNow(key);
        } else {
            requestFrame(key);
        }
    }
    if (frameKey_ && *frameKey_ == key) {
        // The painter is clipped to the exposed region, so only that is copied.
        p.drawImage(0, 0, frame_);
    } else {
        paintStaleFrame(p, key);
    }
    if (drop_) {
        // Where a dragged header or track would land (among the pinned
        // rows, the line under the last one does not scroll either).
        const bool pinned = layout_.rows()[drop_->from].pinned && layout_.pinnedHeight() > 0;
        const int y = pinned ? drop_->y : layout_.screenY(drop_->y, vbar_->value());
        p.fillRect(QRect(0, y - 1, width() - vbar_->width(), 3), colors_.selection);
    }
}

uint32_t TimelineView::sliceAt(QPoint pos) const {
    if (!trace_ || pos.x() < kGutterWidth) return kNone;
    const int index = layout_.rowAtScreen(pos.y(), vbar_->value());
    if (index < 0) return kNone;
    const DisplayRow& dr = layout_.rows()[static_cast<size_t>(index)];
    if (dr.kind != DisplayRow::Kind::Slices) return kNone;
    const Track& track = trace_->tracks[dr.track];
    if (dr.row >= track.rows.size()) return kNone;
    const TimeAxis ax = axis();
    const double x = pos.x() - kGutterWidth;
    // Two pixels of slack so that thin slices can be clicked.
    const TimeNs t0 = ax.toTime(x - 2), t1 = ax.toTime(x + 2), t = ax.toTime(x);
    const auto [lo, hi] = trace_->visibleInRow(track.rows[dr.row], t0, t1);
    uint32_t best = kNone;
    TimeNs bestDistance = INT64_MAX;
    for (uint32_t i = lo; i < hi; ++i) {
        const Slice& s = trace_->slices[i];
        const TimeNs d = t < s.start ? s.start - t : (t > s.end() ? t - s.end() : 0);
        if (d < bestDistance) {
            bestDistance = d;
            best = i;
        }
    }
    return best;
}

void TimelineView::revealSlice(uint32_t slice) {
    const int y = layout_.yOfSlice(slice);
    const int pinned = layout_.pinnedHeight();
    if (y < pinned) return;  // collapsed away, or pinned: always in view
    const int top = y - vbar_->value();
    if (top < pinned || top + TimelineLayout::kRowHeight > height()) {
        vbar_->setValue(std::max(0, y - pinned - (height() - pinned) / 3));
    }
}

uint64_t TimelineView::slicesInView() const {
    if (!trace_) return 0;
    const TimeWindow w = state_->visible();
    uint64_t n = 0;
    for (const Track& tr : trace_->tracks) {
        for (const Row& row : tr.rows) {
            const auto [lo, hi] = trace_->visibleInRow(row, w.start, w.end);
            n += hi - lo;
        }
    }
    return n;
}

TimeNs TimelineView::anchorTime() const {
    const QPoint pos = mapFromGlobal(QCursor::pos());
    const TimeAxis ax = axis();
    if (rect().contains(pos) && pos.x() >= kGutterWidth) return ax.toTime(pos.x() - kGutterWidth);
    return state_->visible().start + state_->visible().span() / 2;
}

void TimelineView::handleGutterClick(QPoint pos) {
    const int index = layout_.rowAtScreen(pos.y(), vbar_->value());
    if (index < 0) return;
    const DisplayRow& dr = layout_.rows()[static_cast<size_t>(index)];
    if (dr.kind == DisplayRow::Kind::ProcessHeader) {
        layout_.toggleProcess(dr.process);
    } else if (dr.kind == DisplayRow::Kind::RankHeader) {
        layout_.toggleRank(dr.process);
    } else if (dr.kind != DisplayRow::Kind::Counter && dr.firstOfTrack &&
               trace_->tracks[dr.track].rows.size() > 1) {
        layout_.toggleTrack(dr.track);
    } else {
        return;
    }
    arrangementEdited();
}

void TimelineView::arrangementEdited() {
    updateScrollRange();
    contentChanged();
    emit arrangementChanged();
}

void TimelineView::setArrangement(TrackArrangement arrangement) {
    layout_.setArrangement(std::move(arrangement));
    updateScrollRange();
    contentChanged();
}

void TimelineView::setAllCollapsed(bool collapsed) {
    layout_.setAllCollapsed(collapsed);
    arrangementEdited();
}

int TimelineView::setTrackFilter(const QString& pattern) {
    trackFilter_ = pattern;
    if (!trace_) return 0;
    const Trace& t = *trace_;
    if (pattern.trimmed().isEmpty()) {
        layout_.setShown({}, {});
        updateScrollRange();
        contentChanged();
        return static_cast<int>(t.tracks.size() + t.counters.size());
    }
    QRegularExpression re(pattern, QRegularExpression::CaseInsensitiveOption);
    if (!re.isValid())
        re = QRegularExpression(QRegularExpression::escape(pattern),
                                QRegularExpression::CaseInsensitiveOption);
    // "rank 1 › GPU 0 · H100 › stream 7": a pattern can name any part.
    std::vector<QString> processes(t.processes.size());
    for (uint32_t p = 0; p < t.processes.size(); ++p)
        processes[p] = processTitle(t, p) + " › ";
    int shown = 0;
    auto matches = [&](uint32_t process, TrackItem item) {
        const QString where = process < processes.size() ? processes[process] : QString();
        const bool hit = re.match(where + itemName(t, item)).hasMatch();
        shown += hit;
        return static_cast<uint8_t>(hit);
    };
    // A vector that is not empty even when nothing matches: all are then left out.
    std::vector<uint8_t> tracks(t.tracks.size() + 1, 0), counters(t.counters.size() + 1, 0);
    for (uint32_t i = 0; i < t.tracks.size(); ++i)
        tracks[i] = matches(t.tracks[i].process, {false, i});
    for (uint32_t i = 0; i < t.counters.size(); ++i)
        counters[i] = matches(t.counters[i].process, {true, i});
    layout_.setShown(std::move(tracks), std::move(counters));
    updateScrollRange();
    contentChanged();
    return shown;
}

QString TimelineView::rowLabel(const DisplayRow& row) const {
    const Trace& t = *trace_;
    switch (row.kind) {
        case DisplayRow::Kind::ProcessHeader:
            return processTitle(t, row.process);
        case DisplayRow::Kind::RankHeader:
            return tr("rank %1").arg(t.ranks[row.process].rank);
        case DisplayRow::Kind::PinnedHeader:
            return tr("Pinned");
        default:
            return processTitle(t, row.process) + " › " + itemName(t, *row.item());
    }
}

void TimelineView::fillGutterMenu(QMenu& menu, int y) {
    if (!trace_) return;
    const int index = layout_.rowAtScreen(y, vbar_->value());
    auto edit = [this](auto&& change) {
        return [this, change] {
            change();
            arrangementEdited();
        };
    };
    if (index >= 0) {
        const auto at = static_cast<size_t>(index);
        const DisplayRow row = layout_.rows()[at];
        const QString name = rowLabel(row);
        const QString shortName = QFontMetrics(menu.font()).elidedText(name, Qt::ElideMiddle, 300);
        if (const std::optional<TrackItem> item = row.item()) {
            const TrackItem i = *item;
            if (layout_.isPinned(i)) {
                menu.addAction(tr("Unpin “%1”").arg(shortName),
                               edit([this, i] { layout_.setPinned(i, false); }));
            } else {
                menu.addAction(tr("Pin “%1” to the top").arg(shortName),
                               edit([this, i] { layout_.setPinned(i, true); }));
                menu.addAction(tr("Hide “%1”").arg(shortName),
                               edit([this, i] { layout_.setHidden(i, true); }));
            }
        }
        if (row.kind == DisplayRow::Kind::ProcessHeader) {
            const uint32_t p = row.process;
            menu.addAction(tr("Hide “%1”").arg(shortName),
                           edit([this, p] { layout_.setProcessHidden(p, true); }));
        }
        if (row.kind == DisplayRow::Kind::PinnedHeader) {
            menu.addAction(tr("Unpin all"), edit([this] {
                               TrackArrangement a = layout_.arrangement();
                               a.pinned.clear();
                               layout_.setArrangement(std::move(a));
                           }));
        }
        // Moving by the menu as well as by dragging: the same drop.
        const auto up = layout_.moveStep(at, -1), down = layout_.moveStep(at, +1);
        if (up || down) {
            menu.addAction(tr("Move up"), edit([this, up] { layout_.drop(*up); }))
                ->setEnabled(up.has_value());
            menu.addAction(tr("Move down"), edit([this, down] { layout_.drop(*down); }))
                ->setEnabled(down.has_value());
        }
    }
    menu.addSeparator();
    menu.addAction(tr("Collapse all"), this, [this] { setAllCollapsed(true); });
    menu.addAction(tr("Expand all"), this, [this] { setAllCollapsed(false); });
    QAction* show = menu.addAction(tr("Show hidden (%1)").arg(layout_.hiddenCount()),
                                   edit([this] { layout_.showAllHidden(); }));
    show->setEnabled(layout_.hiddenCount() > 0);
    menu.addAction(tr("Filter tracks…"), this, &TimelineView::trackFilterRequested);
    QAction* reset =
        menu.addAction(tr("Reset the arrangement"), edit([this] { layout_.setArrangement({}); }));
    reset->setEnabled(!layout_.arrangement().empty());
}

void TimelineView::mousePressEvent(QMouseEvent* e) {
    setFocus();
    if (!trace_ || e->button() != Qt::LeftButton) return;
    if (e->position().x() < kGutterWidth) {
        // A click toggles on release; a drag moves the header or track.
        gutterPressRow_ = layout_.rowAtScreen(e->position().toPoint().y(), vbar_->value());
        // Below the last row: nothing to toggle or move.
        if (gutterPressRow_ >= 0) pressPos_ = e->position().toPoint();
        return;
    }
    pressPos_ = e->position().toPoint();
    pressWindow_ = state_->visible();
    pressScroll_ = vbar_->value();
    dragging_ = false;
    selectingRange_ = e->modifiers() & Qt::ShiftModifier;
    if (selectingRange_) rangeAnchor_ = axis().toTime(pressPos_.x() - kGutterWidth);
}

void TimelineView::mouseMoveEvent(QMouseEvent* e) {
    if (!trace_) return;
    const QPoint pos = e->position().toPoint();
    const TimeAxis ax = axis();
    emit hoverTimeChanged(ax.toTime(pos.x() - kGutterWidth), pos.x() >= kGutterWidth);
    if (e->buttons() & Qt::LeftButton && pressPos_ != QPoint()) {
        if ((pos - pressPos_).manhattanLength() > QApplication::startDragDistance())
            dragging_ = true;
        if (!dragging_) return;
        if (gutterPressRow_ >= 0) {
            const int y = std::clamp(pos.y(), 0, height() - 1);
            drop_ = layout_.dropAt(static_cast<size_t>(gutterPressRow_),
                                   y < layout_.pinnedHeight() ? y : y + vbar_->value());
            setCursor(drop_ ? Qt::ClosedHandCursor : Qt::ForbiddenCursor);
            update();
            return;
        }
        if (selectingRange_) {
            const TimeNs t = ax.toTime(pos.x() - kGutterWidth);
            state_->setSelectedRange(
                TimeWindow{std::min(rangeAnchor_, t), std::max(rangeAnchor_, t)});
        } else {
            // Drag to pan: the grabbed time stays under the cursor.
            const TimeAxis pressAxis(pressWindow_, ax.width());
            const TimeNs delta = pressAxis.toTime(pressPos_.x()) - pressAxis.toTime(pos.x());
            state_->setVisible(ui::panBy(pressWindow_, delta, state_->bounds()));
            vbar_->setValue(pressScroll_ - (pos.y() - pressPos_.y()));
        }
        return;
    }
    const uint32_t h = sliceAt(pos);
    if (h != hover_) {
        hover_ = h;
        updateFrame();
    }
}

void TimelineView::mouseReleaseEvent(QMouseEvent* e) {
    if (!trace_ || e->button() != Qt::LeftButton || pressPos_ == QPoint()) return;
    if (gutterPressRow_ >= 0) {
        if (!dragging_) {
            handleGutterClick(pressPos_);
        } else if (drop_) {
            layout_.drop(*drop_);
            arrangementEdited();
        }
        gutterPressRow_ = -1;
        drop_.reset();
        unsetCursor();
        update();
    } else if (!dragging_) {
        const uint32_t s = sliceAt(e->position().toPoint());
        if (e->modifiers() & Qt::ControlModifier) {
            state_->toggleSliceInSelection(s);  // Ctrl+click: several slices
        } else {
            state_->setSelectedSlice(s);
            if (!selectingRange_) state_->setSelectedRange(std::nullopt);
        }
    }
    pressPos_ = QPoint();
    dragging_ = false;
    selectingRange_ = false;
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* e) {
    const uint32_t s = sliceAt(e->position().toPoint());
    if (s == kNone) return;
    state_->setSelectedSlice(s);
    fitSelection();
}

void TimelineView::contextMenuEvent(QContextMenuEvent* e) {
    if (!trace_) return QWidget::contextMenuEvent(e);
    if (e->pos().x() < kGutterWidth) {
        QMenu menu(this);
        fillGutterMenu(menu, e->pos().y());
        menu.exec(e->globalPos());
        e->accept();
        return;
    }
    emit contextMenuRequested(e->globalPos(), axis().toTime(e->pos().x() - kGutterWidth),
                              sliceAt(e->pos()));
    e->accept();
}

void TimelineView::fitSelection() {
    if (!trace_) return;
    if (const auto r = state_->selectedRange(); r && r->span() > 0) {
        state_->fit(*r);
    } else if (state_->selectedSlice() != kNone) {
        const Slice& s = trace_->slices[state_->selectedSlice()];
        state_->fit({s.start, std::max(s.end(), s.start + 1)});
    }
}

void TimelineView::wheelEvent(QWheelEvent* e) {
    if (!trace_) return;
    const QPoint delta = e->angleDelta();
    if (e->modifiers() & Qt::ControlModifier) {
        const TimeNs anchor = axis().toTime(e->position().x() - kGutterWidth);
        state_->zoomAt(anchor, std::pow(0.85, delta.y() / 120.0));
    } else if (e->modifiers() & Qt::ShiftModifier || delta.x() != 0) {
        const int d = delta.x() != 0 ? delta.x() : delta.y();
        state_->panBy(
            -static_cast<TimeNs>(static_cast<double>(state_->visible().span()) * d / 1200.0));
    } else {
        vbar_->setValue(vbar_->value() - delta.y() / 2);
    }
    e->accept();
}

void TimelineView::keyPressEvent(QKeyEvent* e) {
    if (!trace_) return QWidget::keyPressEvent(e);
    const TimeNs span = state_->visible().span();
    const bool fast = e->modifiers() & Qt::ShiftModifier;
    switch (e->key()) {
        case Qt::Key_W:
            state_->zoomAt(anchorTime(), fast ? 0.5 : 0.8);
            break;
        case Qt::Key_S:
            state_->zoomAt(anchorTime(), fast ? 2.0 : 1.25);
            break;
        case Qt::Key_A:
            state_->panBy(-span / (fast ? 2 : 8));
            break;
        case Qt::Key_D:
            state_->panBy(span / (fast ? 2 : 8));
            break;
        case Qt::Key_F:
            fitSelection();
            break;
        case Qt::Key_0:
            state_->fitAll();
            break;
        case Qt::Key_Escape:
            state_->setSelectedRange(std::nullopt);
            state_->setSelectedSlice(kNone);
            break;
        case Qt::Key_M:
            if (e->modifiers() != Qt::NoModifier || !markSelectedSlice())
                return QWidget::keyPressEvent(e);
            break;
        case Qt::Key_Left:
        case Qt::Key_Right:
        case Qt::Key_Up:
        case Qt::Key_Down:
            if (e->modifiers() != Qt::NoModifier || !walkFromSelectedSlice(e->key()))
                return QWidget::keyPressEvent(e);
            break;
        default:
            return QWidget::keyPressEvent(e);
    }
    e->accept();
}

bool TimelineView::markSelectedSlice() {
    const uint32_t slice = state_->selectedSlice();
    if (slice >= trace_->slices.size()) return false;
    const Slice& s = trace_->slices[slice];
    const TimeWindow span{s.start, std::max(s.end(), s.start + 1)};
    // As Perfetto's M: the slice's span stands out with its duration on the
    // ruler until Esc; M on the marked slice again takes the mark away.
    state_->setSelectedRange(state_->selectedRange() == span ? std::nullopt
                                                             : std::optional<TimeWindow>(span));
    return true;
}

bool TimelineView::walkFromSelectedSlice(int key) {
    const uint32_t from = state_->selectedSlice();
    if (from >= trace_->slices.size()) return false;
    const SliceStep step = key == Qt::Key_Left    ? SliceStep::Previous
                           : key == Qt::Key_Right ? SliceStep::Next
                           : key == Qt::Key_Up    ? SliceStep::Parent
                                                  : SliceStep::FirstChild;
    const uint32_t to = neighbourSlice(*trace_, from, step);
    if (to == kNone) return true;  // at the end of the row: stay
    state_->setSelectedSlice(to);
    const Slice& s = trace_->slices[to];
    const TimeWindow v = state_->visible();
    if (s.start < v.start || s.end() > v.end) {
        // Keep the zoom; bring the slice to the middle.
        state_->panBy((s.start + s.dur / 2) - (v.start + v.span() / 2));
    }
    revealSlice(to);
    return true;
}

void TimelineView::leaveEvent(QEvent*) {
    hover_ = kNone;
    emit hoverTimeChanged(0, false);
    updateFrame();
}

bool TimelineView::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip && trace_) {
        auto* help = static_cast<QHelpEvent*>(e);
        if (help->pos().x() < kGutterWidth) {
            // The whole name, which the gutter may have cut.
            const int row = layout_.rowAtScreen(help->pos().y(), vbar_->value());
            if (row < 0) {
                QToolTip::hideText();
                return true;
            }
            QToolTip::showText(
                help->globalPos(),
                QStringLiteral("%1<br><i>%2</i>")
                    .arg(rowLabel(layout_.rows()[static_cast<size_t>(row)]).toHtmlEscaped(),
                         tr("Drag to move; right-click to pin, hide or filter")),
                this);
            return true;
        }
        const uint32_t s = sliceAt(help->pos());
        if (s == kNone) {
            QToolTip::hideText();
            return true;
        }
        const Slice& slice = trace_->slices[s];
        const Track& tr = trace_->tracks[trace_->trackOfSlice(s)];
        QString text =
            QStringLiteral("<b>%1</b><br>%2 · %3<br>start %4")
                .arg(QString::fromUtf8(trace_->str(slice.name).data(),
                                       static_cast<qsizetype>(trace_->str(slice.name).size()))
                         .toHtmlEscaped(),
                     formatDuration(slice.dur),
                     QString::fromStdString(tr.displayName).toHtmlEscaped(),
                     formatDuration(slice.start - trace_->spanStart, 1));
        const std::string_view cat = trace_->categoryName(slice.category);
        if (!cat.empty())
            text += QStringLiteral("<br>category %1")
                        .arg(QString::fromUtf8(cat.data(), static_cast<qsizetype>(cat.size()))
                                 .toHtmlEscaped());
        QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(e);
}

}  // namespace gapscope::ui
