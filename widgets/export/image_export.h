#pragma once
// File > Export Image and Edit > Copy Image: the picture of the timeline
// (picture/picture.h) for the visible window, the selection or the whole
// trace, some or all of the tracks, with the gaps coloured as on screen
// and the annotations. Drawn and encoded on a worker thread; written
// atomically.

#include <QObject>
#include <QPointer>
#include <QString>
#include <vector>

#include "picture/picture.h"
#include "report/annotations.h"
#include "util/executor.h"

class QAction;
class QWidget;

namespace gapscope::ui {

class TracePage;

class ImageExport : public QObject {
    Q_OBJECT
  public:
    ImageExport(TracePage* page, QWidget* window);

    QAction* exportAction() const { return export_; }
    QAction* copyAction() const { return copy_; }

    struct Choice {
        enum class Range { Visible, Selection, Whole };
        Range range = Range::Visible;
        QString tracks = QStringLiteral("all");  // as `render --tracks`
        int width = 0;                           // 0: the timeline's
        int scale = 1;
        bool annotations = true;
    };
    // What would be drawn; nullopt (with why) when there is no trace, no
    // selection for Range::Selection, or no track matches.
    std::optional<PictureSpec> specFor(const Choice& choice, QString* error) const;
    // Draws and writes at once (PNG or SVG by the extension): for tests and
    // scripts; the menu's export runs the same on a worker.
    bool exportTo(const QString& path, const Choice& choice, QString* error) const;
    // The visible window at the screen's scale, on the clipboard.
    void copyToClipboard();

    void setAnnotations(std::vector<Annotation> annotations) {
        annotations_ = std::move(annotations);
    }

  signals:
    void finished(const QString& message);  // for the status bar

  private:
    void chooseAndExport();

    TracePage* page_;
    QPointer<QWidget> window_;
    QAction* export_;
    QAction* copy_;
    std::vector<Annotation> annotations_;
    TaskGroup exports_;  // destroying it waits for an image being written
};

// Encodes a picture for `path` (.png or .svg); empty with `error` set when not.
QByteArray encodePicture(const PictureSpec& spec, const QString& path, QString* error);

}  // namespace gapscope::ui
