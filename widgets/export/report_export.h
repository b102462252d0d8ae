#pragma once
// File > Export Report: the trace's facts, the summary tables
// (report/run_summary), the annotated picture of the whole trace and the
// annotations (report/run_report), as one self-contained HTML page (the
// picture inline), Markdown (the picture a PNG beside it: NAME.md.png for
// NAME.md) or PDF (QTextDocument printed by QPdfWriter, A4 landscape). Written
// atomically, on a pool thread from the menu.

#include <QObject>
#include <QPointer>
#include <QString>
#include <memory>
#include <vector>

#include "picture/picture.h"
#include "report/run_report.h"
#include "util/executor.h"

class QAction;
class QWidget;

namespace gapscope {
class AnalysisIndex;
}

namespace gapscope::ui {

class AnalysisSession;
class ImageExport;

// Whether the name ends in .html, .md or .pdf (else why, in `error`).
bool isReportPath(const QString& path, QString* error);
// `content` with `images` as its pictures (their captions are the
// content's), by the extension: HTML with the pictures inline, Markdown
// with PNGs beside it (NAME.md.png, NAME.md.2.png, ...), or PDF; atomically,
// never over a file of `keep`.
bool writeReportFile(const QString& path, ReportContent content, const std::vector<QImage>& images,
                     const QStringList& keep, QString* error);
// `index` may be null (one is built). By the extension: .html, .md, .pdf.
bool writeReport(const QString& path, const PictureSpec& picture, const AnalysisIndex* index,
                 QString* error);

class ReportExport : public QObject {
    Q_OBJECT
  public:
    ReportExport(ImageExport* images, AnalysisSession* session, QWidget* window);
    QAction* action() const { return action_; }

  signals:
    void finished(const QString& message);

  private:
    void chooseAndExport();

    ImageExport* images_;
    AnalysisSession* session_;
    QPointer<QWidget> window_;
    QAction* action_;
    TaskGroup exports_;  // destroying it waits for a report being written
};

}  // namespace gapscope::ui
