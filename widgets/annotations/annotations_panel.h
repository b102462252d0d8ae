#pragma once
// The Annotations panel: every marker and note of the trace with its time,
// duration and text; a one-line text edits in place (Edit… or a double
// click on one of several lines opens the dialog), Delete removes, a click
// shows it on the timeline; buttons add a marker at the cursor (M) or a
// note on the selection (N), change a colour, remove. A notice says where
// the annotations are kept when that is not beside the trace, or why they
// cannot be saved.

#include <QWidget>
#include <functional>

#include "report/annotations.h"

class QLabel;
class QTableWidget;
class QPushButton;

namespace gapscope::ui {

class AnnotationStore;

class AnnotationsPanel : public QWidget {
    Q_OBJECT
  public:
    AnnotationsPanel(AnnotationStore* store, QWidget* parent = nullptr);
    QTableWidget* table() const { return table_; }
    QLabel* notice() const { return notice_; }
    QPushButton* editButton() const { return edit_; }
    // Times are shown from this origin (the trace's start).
    void setOrigin(TimeNs origin) {
        origin_ = origin;
        refill();
    }
    void select(uint64_t id);
    uint64_t selected() const;

  signals:
    void activated(uint64_t id);  // show it on the timeline
    void addMarkerRequested();
    void addNoteRequested();
    void colourRequested(uint64_t id);
    void editRequested(uint64_t id);  // the text, in a dialog

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void refill();

    AnnotationStore* store_;
    QLabel* notice_;
    QTableWidget* table_;
    QPushButton *edit_, *colour_, *remove_;
    TimeNs origin_ = 0;
    bool filling_ = false;
};

}  // namespace gapscope::ui
