#pragma once
// The open trace's annotations: loaded from its sidecar when the trace is
// opened (or reloaded), saved atomically after every change, every change
// undoable. A sidecar that cannot be read, or is from a newer Gapscope, is
// reported and kept: the store is then read-only and never writes over it.
// Where the trace's folder cannot be written the sidecar lives in the
// user's data folder, and the store says so.

#include <QObject>
#include <QString>
#include <vector>

#include "report/annotations.h"

class QUndoStack;

namespace gapscope::ui {

class AnnotationStore : public QObject {
    Q_OBJECT
  public:
    explicit AnnotationStore(QObject* parent = nullptr);

    // Forgets the last trace's annotations (and their undo history) and
    // reads this one's.
    void load(const QString& tracePath);
    void clear();

    const std::vector<Annotation>& annotations() const { return annotations_; }
    const Annotation* find(uint64_t id) const;
    bool writable() const { return writable_; }
    QString sidecarPath() const { return QString::fromStdString(path_); }
    bool inFallbackFolder() const { return fallback_; }
    // What the user should know about where the annotations are: the
    // fallback folder, an unreadable or newer sidecar, a failed write.
    QString notice() const { return notice_; }

    // Each is one undoable step, saved at once; false (with notice()) when
    // the store is read-only or no trace is open.
    bool add(Annotation a);  // a.id is assigned; returns false when not added
    bool setText(uint64_t id, const QString& text);
    bool setColor(uint64_t id, const QString& color);
    bool remove(uint64_t id);
    uint64_t lastAdded() const { return lastAdded_; }

    QUndoStack* undoStack() const { return undo_; }

  signals:
    void changed();
    void noticeChanged(const QString& notice);

  private:
    friend class AnnotationCommand;
    // Replaces the list (the undo commands' one way in) and saves it.
    void apply(std::vector<Annotation> annotations);
    bool edit(const QString& what, std::vector<Annotation> next);
    void setNotice(const QString& notice);

    std::vector<Annotation> annotations_;
    std::string tracePath_, path_;
    bool fallback_ = false;
    bool writable_ = false;
    uint64_t nextId_ = 1;
    uint64_t lastAdded_ = 0;
    QString notice_;
    QUndoStack* undo_;
};

}  // namespace gapscope::ui
