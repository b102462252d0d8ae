#pragma once
// Annotating in the viewer: M puts a marker at the cursor, N a note on the
// selected range (or slice), the timeline's context menu does both and
// edits or removes what is under the cursor; Ctrl+Z / Ctrl+Shift+Z undo
// and redo. Keeps the timeline, the ruler, the Annotations panel and the
// image export showing the store's annotations.

#include <QObject>
#include <QPoint>

#include "model/trace.h"
#include "report/annotations.h"

class QAction;
class QWidget;

namespace gapscope::ui {

class AnnotationStore;
class AnnotationsPanel;
class ImageExport;
class TracePage;

class AnnotationController : public QObject {
    Q_OBJECT
  public:
    AnnotationController(TracePage* page, ImageExport* images, QWidget* window);

    AnnotationStore* store() const { return store_; }
    AnnotationsPanel* panel() const { return panel_; }
    QAction* markerAction() const { return marker_; }
    QAction* noteAction() const { return note_; }
    QAction* undoAction() const { return undo_; }
    QAction* redoAction() const { return redo_; }

    // After a trace is opened or reloaded: its annotations.
    void traceOpened(const QString& path);
    // Without dialogs (tests, scripts): the text is given.
    void setInteractive(bool interactive) { interactive_ = interactive; }

    bool addMarkerAt(TimeNs t, const QString& text);
    // A range note on the selected range, else a slice note on the selected
    // slice; false when neither is selected.
    bool addNoteOnSelection(const QString& text);
    // Shows one on the timeline and marks it current.
    void show(uint64_t id);

  signals:
    void message(const QString& text);  // for the status bar

  private:
    void sync();
    void askMarker();  // at the cursor
    void askMarkerAt(TimeNs t);
    void askNote();
    void chooseColour(uint64_t id);
    void editText(uint64_t id);  // in the multi-line dialog
    void contextMenu(QPoint globalPos, TimeNs time, uint32_t slice);
    uint64_t annotationNear(TimeNs t) const;

    TracePage* page_;
    ImageExport* images_;
    QWidget* window_;
    AnnotationStore* store_;
    AnnotationsPanel* panel_;
    QAction *marker_, *note_, *undo_, *redo_;
    uint64_t current_ = 0;
    bool interactive_ = true;
};

}  // namespace gapscope::ui
