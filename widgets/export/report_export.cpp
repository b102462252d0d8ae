#include "export/report_export.h"

#include <QAction>
#include <QApplication>
#include <QBuffer>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPdfWriter>
#include <QTextDocument>
#include <QUrl>

#include "analysis/analysis_index.h"
#include "export/export_files.h"
#include "export/image_export.h"
#include "panels/analysis_session.h"
#include "report/run_report.h"

namespace gapscope::ui {

bool isReportPath(const QString& path, QString* error) {
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext == QLatin1String("html") || ext == QLatin1String("htm") || ext == QLatin1String("md") ||
        ext == QLatin1String("pdf"))
        return true;
    if (error) *error = QObject::tr("%1: the name must end in .html, .md or .pdf").arg(path);
    return false;
}

bool writeReportFile(const QString& path, ReportContent content, const std::vector<QImage>& images,
                     const QStringList& keep, QString* error) {
    if (!isReportPath(path, error)) return false;
    const QString ext = QFileInfo(path).suffix().toLower();
    content.pictures.resize(images.size());
    if (ext == QLatin1String("md")) {
        const QFileInfo info(path);
        for (size_t i = 0; i < images.size(); ++i) {
            // NAME.md.png (NAME.md.2.png, ...): not NAME.png, which may be an
            // exported image kept beside it.
            const QString png = info.fileName() +
                                (i == 0 ? QString() : QStringLiteral(".%1").arg(i + 1)) +
                                QStringLiteral(".png");
            if (!writeExportFile(info.dir().filePath(png), pngBytes(images[i]), error, keep))
                return false;
            content.pictures[i].url = QUrl::toPercentEncoding(png).toStdString();  // spaces
        }
        const std::string md = reportDocument(content, OutputFormat::Markdown);
        return writeExportFile(path, QByteArray::fromStdString(md), error, keep);
    }
    if (ext != QLatin1String("pdf")) {
        for (size_t i = 0; i < images.size(); ++i) {
            content.pictures[i].url =
                "data:image/png;base64," + pngBytes(images[i]).toBase64().toStdString();
            content.pictures[i].width =
                static_cast<int>(images[i].width() / images[i].devicePixelRatio());
        }
        const std::string html = reportDocument(content, OutputFormat::Html);
        return writeExportFile(path, QByteArray::fromStdString(html), error, keep);
    }
    // PDF: the HTML page laid out by QTextDocument on A4, each picture a
    // resource of the document scaled to the text width.
    QByteArray pdf;
    {
        QBuffer buffer(&pdf);
        buffer.open(QIODevice::WriteOnly);
        QPdfWriter writer(&buffer);
        writer.setPageSize(QPageSize(QPageSize::A4));
        // Landscape: the GPU time table has a dozen numeric columns.
        writer.setPageOrientation(QPageLayout::Landscape);
        writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
        writer.setResolution(96);
        writer.setTitle(QString::fromStdString(
            content.title.empty() ? "Gapscope report: " + content.traceName : content.title));
        writer.setCreator(QStringLiteral("Gapscope"));
        QTextDocument doc;
        const QSizeF page = writer.pageLayout().paintRectPixels(writer.resolution()).size();
        doc.setPageSize(page);
        for (size_t i = 0; i < images.size(); ++i) {
            const QUrl url(QStringLiteral("gapscope-picture-%1.png").arg(i + 1));
            doc.addResource(QTextDocument::ImageResource, url, images[i]);
            content.pictures[i].url = url.toString().toStdString();
            // Within the page's text width (the page less the body's margins).
            content.pictures[i].width = static_cast<int>(page.width() * 0.9);
        }
        doc.setHtml(QString::fromStdString(reportDocument(content, OutputFormat::Html)));
        doc.print(&writer);
    }
    return writeExportFile(path, pdf, error, keep);
}

bool writeReport(const QString& path, const PictureSpec& picture, const AnalysisIndex* index,
                 QString* error) {
    if (!isReportPath(path, error)) return false;
    if (!picture.trace) {
        if (error) *error = QObject::tr("No trace is open.");
        return false;
    }
    const Trace& trace = *picture.trace;
    const QStringList keep = protectedFiles(trace.path);
    if (isProtected(path, keep)) {
        if (error)
            *error = QObject::tr("%1: this is the trace or its annotations; choose another name")
                         .arg(path);
        return false;
    }
    std::unique_ptr<AnalysisIndex> own;
    if (!index) {
        own = std::make_unique<AnalysisIndex>(trace);
        index = own.get();
    }
    StepOptions options;
    options.index = index;
    options.minGapNs = picture.gapThreshold;
    ReportContent content;
    content.traceName = picture.title.toStdString();
    content.facts = traceFacts(trace, content.traceName);
    content.tables = summaryTables(trace, options, 10);
    content.annotations = picture.annotations;
    content.origin = picture.origin;
    content.pictures = {{"",
                         QObject::tr("The whole trace, GPU idle gaps shaded by cause, with the "
                                     "annotations")
                             .toStdString(),
                         0}};
    QString why;
    const QImage image = renderPicture(picture, &why);
    if (image.isNull()) {
        if (error) *error = QStringLiteral("%1: %2").arg(path, why);
        return false;
    }
    return writeReportFile(path, std::move(content), {image}, keep, error);
}

ReportExport::ReportExport(ImageExport* images, AnalysisSession* session, QWidget* window)
    : QObject(window), images_(images), session_(session), window_(window) {
    action_ = new QAction(tr("Export &Report…"), this);
    connect(action_, &QAction::triggered, this, &ReportExport::chooseAndExport);
}

void ReportExport::chooseAndExport() {
    ImageExport::Choice choice;
    choice.range = ImageExport::Choice::Range::Whole;
    choice.width = 1400;
    QString error;
    const auto spec = images_->specFor(choice, &error);
    if (!spec) {
        QMessageBox::warning(window_, tr("Export Report"), error);
        return;
    }
    const QString path = QFileDialog::getSaveFileName(
        window_, tr("Export Report"),
        suggestedSavePath(QFileInfo(spec->title).completeBaseName() + ".html"),
        tr("HTML, self-contained (*.html);;Markdown, picture beside it (*.md);;PDF (*.pdf)"));
    if (path.isEmpty()) return;
    rememberSaveFolder(path);
    // The summary needs the analysis index: the session's, built once per load.
    std::shared_ptr<const IndexedTrace> indexed = session_->indexed();
    if (indexed && indexed->trace != spec->trace) indexed.reset();
    emit finished(tr("Writing the report…"));
    runExport(
        exports_, this, window_, tr("Export Report"),
        [spec = *spec, path, indexed](QString* message) {
            const bool ok =
                writeReport(path, spec, indexed ? indexed->index.get() : nullptr, message);
            if (ok) *message = tr("Wrote the report %1").arg(path);
            return ok;
        },
        [this](const QString& message) { emit finished(message); });
}

}  // namespace gapscope::ui
