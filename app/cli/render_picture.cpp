#include "render_picture.h"

#include <QBuffer>
#include <QGuiApplication>
#include <QImage>
#include <clocale>
#include <filesystem>
#include <iostream>

#include "analysis/analysis_index.h"
#include "picture/annotation_files.h"
#include "picture/picture.h"
#include "report/annotations.h"

namespace gapscope::cli {

namespace {
std::string& messagePrefix() {
    static std::string prefix;
    return prefix;
}
}  // namespace

std::shared_ptr<void> offscreenGui(const std::string& who) {
    if (QCoreApplication::instance()) return nullptr;
    // Qt's own warnings (no XDG_RUNTIME_DIR, font substitutions) are not
    // the caller's business; its errors are, named by the caller.
    messagePrefix() = who;
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext&, const QString& text) {
        if (type == QtCriticalMsg || type == QtFatalMsg)
            std::cerr << messagePrefix() << ": " << text.toStdString() << "\n";
    });
    // The offscreen platform by its argument, not the environment, so that
    // a process that shows windows later (a notebook's Qt backend) still
    // can. Qt keeps argc and argv.
    static int argc = 3;
    static char name[] = "gapscope", platform[] = "-platform", offscreen[] = "offscreen";
    static char* argv[] = {name, platform, offscreen, nullptr};
    // Qt sets the C library's locale from the environment; numbers are
    // written with the C locale's point in every figure and message.
    const std::string locale = setlocale(LC_ALL, nullptr);
    auto app = std::make_shared<QGuiApplication>(argc, argv);
    setlocale(LC_ALL, locale.c_str());
    return app;
}

Picture renderTracePicture(const std::shared_ptr<const Trace>& trace, const PictureRequest& r) {
    Picture out;
    std::string error;
    const auto tracks = ui::selectTracks(*trace, r.tracks, &error);
    if (!tracks) {
        out.error = error;
        out.badRequest = true;
        return out;
    }
    ui::PictureSpec spec;
    spec.trace = trace;
    spec.range =
        r.range ? ui::TimeWindow{r.range->start, r.range->end}
                : ui::TimeWindow{trace->spanStart, std::max(trace->spanEnd, trace->spanStart + 1)};
    spec.tracks = *tracks;
    spec.width = r.width;
    spec.height = r.height;
    spec.maxTracksHeight = r.maxTracksHeight;
    spec.scale = r.scale;
    spec.dark = r.dark;
    spec.title = QString::fromStdString(std::filesystem::path(r.tracePath).filename().string());
    spec.origin = trace->spanStart;
    spec.gapThreshold = r.minGapNs;
    spec.font = QGuiApplication::font();
    {
        const AnalysisIndex index(*trace);
        GapOptions o;
        o.minGapNs = spec.gapThreshold;
        o.index = &index;
        spec.gapColours = ui::gapCauseColours(*trace, o, r.dark);
    }
    if (r.annotations && !r.tracePath.empty()) {
        const SidecarRead read = readSidecar(ui::sidecarLocation(r.tracePath).readPath);
        if (read.status == SidecarStatus::Loaded) {
            spec.annotations = read.annotations;
        } else if (read.status != SidecarStatus::Missing) {
            out.warnings.push_back("annotations left out: " + read.error);
        }
    }
    QString why;
    if (r.svg) {
        const QByteArray svg = ui::renderSvg(spec, &why);
        if (svg.isEmpty()) {
            out.error = why.toStdString();
            return out;
        }
        out.bytes.assign(svg.constData(), static_cast<size_t>(svg.size()));
        return out;
    }
    const QImage image = ui::renderPicture(spec, &why);
    if (image.isNull()) {
        out.error = why.toStdString();
        return out;
    }
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) {
        out.error = "could not encode the PNG";
        return out;
    }
    out.bytes.assign(png.constData(), static_cast<size_t>(png.size()));
    return out;
}

}  // namespace gapscope::cli
