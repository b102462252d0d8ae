#include "annotations/annotation_controller.h"

#include <QAction>
#include <QColorDialog>
#include <QInputDialog>
#include <QMenu>
#include <QUndoStack>

#include "annotations/annotation_store.h"
#include "annotations/annotations_panel.h"
#include "export/image_export.h"
#include "picture/annotation_painter.h"
#include "timeline/time_ruler.h"
#include "timeline/timeline_view.h"
#include "trace_page.h"

namespace gapscope::ui {

namespace {

// Okabe–Ito, apart from the gap causes' colours.
constexpr const char* kMarkerColour = "#d55e00";
constexpr const char* kRangeColour = "#0072b2";
constexpr const char* kSliceColour = "#cc79a7";

}  // namespace

AnnotationController::AnnotationController(TracePage* page, ImageExport* images, QWidget* window)
    : QObject(window),
      page_(page),
      images_(images),
      window_(window),
      store_(new AnnotationStore(this)),
      panel_(new AnnotationsPanel(store_)) {
    TimelineView* timeline = page_->timeline();
    // On the timeline only: typing M or N in the search box types them.
    // M alone marks the selected slice's span for the moment (as Perfetto);
    // Shift+M makes a marker that stays.
    marker_ = new QAction(tr("Add &Marker at the Cursor"), this);
    marker_->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_M));
    marker_->setShortcutContext(Qt::WidgetShortcut);
    connect(marker_, &QAction::triggered, this, &AnnotationController::askMarker);
    timeline->addAction(marker_);
    note_ = new QAction(tr("Add &Note on the Selection"), this);
    note_->setShortcut(QKeySequence(Qt::Key_N));
    note_->setShortcutContext(Qt::WidgetShortcut);
    connect(note_, &QAction::triggered, this, &AnnotationController::askNote);
    timeline->addAction(note_);
    undo_ = store_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo_->setShortcut(QKeySequence::Undo);
    redo_ = store_->undoStack()->createRedoAction(this, tr("&Redo"));
    redo_->setShortcut(QKeySequence::Redo);
    connect(store_, &AnnotationStore::changed, this, &AnnotationController::sync);
    connect(store_, &AnnotationStore::noticeChanged, this, &AnnotationController::message);
    connect(panel_, &AnnotationsPanel::activated, this, &AnnotationController::show);
    connect(panel_, &AnnotationsPanel::addMarkerRequested, this, &AnnotationController::askMarker);
    connect(panel_, &AnnotationsPanel::addNoteRequested, this, &AnnotationController::askNote);
    connect(panel_, &AnnotationsPanel::colourRequested, this, &AnnotationController::chooseColour);
    connect(panel_, &AnnotationsPanel::editRequested, this, &AnnotationController::editText);
    connect(timeline, &TimelineView::contextMenuRequested, this,
            &AnnotationController::contextMenu);
}

void AnnotationController::traceOpened(const QString& path) {
    current_ = 0;
    store_->load(path);
    if (const auto trace = page_->trace()) panel_->setOrigin(trace->spanStart);
}

void AnnotationController::sync() {
    const auto& all = store_->annotations();
    page_->timeline()->setAnnotations(all, current_);
    page_->ruler()->setAnnotations(all, current_);
    if (images_) images_->setAnnotations(all);
}

bool AnnotationController::addMarkerAt(TimeNs t, const QString& text) {
    Annotation a;
    a.kind = Annotation::Kind::Marker;
    a.start = a.end = t;
    a.text = text.toStdString();
    a.color = kMarkerColour;
    if (!store_->add(a)) return false;
    show(store_->lastAdded());
    return true;
}

bool AnnotationController::addNoteOnSelection(const QString& text) {
    const auto trace = page_->trace();
    if (!trace) return false;
    const ViewState* state = page_->state();
    Annotation a;
    a.text = text.toStdString();
    if (const auto r = state->selectedRange(); r && r->span() > 0) {
        a.kind = Annotation::Kind::Range;
        a.start = r->start;
        a.end = r->end;
        a.color = kRangeColour;
    } else if (const uint32_t s = state->selectedSlice(); s < trace->slices.size()) {
        const Slice& slice = trace->slices[s];
        const uint32_t track = trace->trackOfSlice(s);
        a.kind = Annotation::Kind::Slice;
        a.start = slice.start;
        a.end = slice.end();
        a.track = track < trace->tracks.size() ? trace->tracks[track].displayName : std::string();
        a.slice = std::string(trace->str(slice.name));
        a.color = kSliceColour;
    } else {
        emit message(tr("Select a range (Shift+drag) or a slice first, then add a note (N)."));
        return false;
    }
    if (!store_->add(a)) return false;
    show(store_->lastAdded());
    return true;
}

void AnnotationController::askMarker() {
    if (page_->trace()) askMarkerAt(page_->timeline()->anchorTime());
}

void AnnotationController::askMarkerAt(TimeNs t) {
    QString text = tr("Marker %1").arg(store_->annotations().size() + 1);
    if (interactive_) {
        bool ok = false;
        text = QInputDialog::getText(window_, tr("Add Marker"), tr("Marker text:"),
                                     QLineEdit::Normal, text, &ok);
        if (!ok) return;
    }
    addMarkerAt(t, text);
}

void AnnotationController::askNote() {
    if (!page_->trace()) return;
    const auto r = page_->state()->selectedRange();
    const bool any = (r && r->span() > 0) || page_->state()->selectedSlice() != kNone;
    if (!any) {
        addNoteOnSelection({});  // says what to select
        return;
    }
    QString text;
    if (interactive_) {
        bool ok = false;
        text = QInputDialog::getMultiLineText(window_, tr("Add Note"), tr("Note:"), {}, &ok);
        if (!ok) return;
    }
    addNoteOnSelection(text);
}

void AnnotationController::editText(uint64_t id) {
    const Annotation* e = store_->find(id);
    if (!e) return;
    bool ok = false;
    const QString text = QInputDialog::getMultiLineText(window_, tr("Edit Annotation"), tr("Text:"),
                                                        QString::fromStdString(e->text), &ok);
    if (ok) store_->setText(id, text);
}

void AnnotationController::chooseColour(uint64_t id) {
    const Annotation* a = store_->find(id);
    if (!a || !interactive_) return;
    const QColor c =
        QColorDialog::getColor(QColor(QString::fromStdString(a->color)), window_, tr("Colour"));
    if (c.isValid()) store_->setColor(id, c.name());
}

void AnnotationController::show(uint64_t id) {
    const Annotation* a = store_->find(id);
    if (!a) return;
    current_ = id;
    panel_->select(id);
    ViewState* state = page_->state();
    const TimeWindow v = state->visible();
    if (a->kind == Annotation::Kind::Marker) {
        if (a->start < v.start || a->start > v.end)
            state->setVisible({a->start - v.span() / 2, a->start - v.span() / 2 + v.span()},
                              ViewState::History::Record);
    } else if (a->kind == Annotation::Kind::Range) {
        state->setSelectedRange(TimeWindow{a->start, a->end});
        if (a->start < v.start || a->end > v.end) state->fit({a->start, a->end});
    } else if (const auto trace = page_->trace()) {
        const uint32_t s = annotatedSlice(*trace, *a);
        if (s != kNone) {
            state->setSelectedSlice(s);
            if (a->start < v.start || a->end > v.end) state->fit({a->start, a->end});
            page_->timeline()->revealSlice(s);
        }
    }
    sync();
}

uint64_t AnnotationController::annotationNear(TimeNs t) const {
    const TimeAxis ax = page_->timeline()->axis();
    const TimeNs slack = ax.toTime(4) - ax.toTime(0);
    uint64_t best = 0;
    for (const Annotation& a : store_->annotations())
        if (t >= a.start - slack && t <= a.end + slack) best = a.id;  // the last drawn is on top
    return best;
}

void AnnotationController::contextMenu(QPoint globalPos, TimeNs time, uint32_t slice) {
    QMenu menu(window_);
    menu.addAction(tr("Add Marker Here"), this, [this, time] { askMarkerAt(time); });
    const auto r = page_->state()->selectedRange();
    if (r && r->span() > 0)
        menu.addAction(tr("Add Note on the Selected Range…"), this, [this] {
            page_->state()->setSelectedSlice(kNone);
            askNote();
        });
    if (slice != kNone) {
        menu.addAction(tr("Add Note on This Slice…"), this, [this, slice] {
            page_->state()->setSelectedRange(std::nullopt);
            page_->state()->setSelectedSlice(slice);
            askNote();
        });
    }
    if (const uint64_t id = annotationNear(time)) {
        const Annotation* a = store_->find(id);
        const QString name =
            QFontMetrics(menu.font()).elidedText(annotationHeadline(*a), Qt::ElideRight, 200);
        menu.addSeparator();
        menu.addAction(tr("Edit “%1”…").arg(name), this, [this, id] { editText(id); });
        menu.addAction(tr("Colour of “%1”…").arg(name), this, [this, id] { chooseColour(id); });
        menu.addAction(tr("Remove “%1”").arg(name), this, [this, id] { store_->remove(id); });
    }
    menu.exec(globalPos);
}

}  // namespace gapscope::ui
