// gapscope-cli render TRACE --out FILE.png|FILE.svg: the exported picture
// (title, ruler, tracks with GPU gaps shaded by cause, annotations, legend)
// drawn headlessly by the viewer's own painter on Qt's offscreen platform.

#include <QBuffer>
#include <QFont>
#include <QGuiApplication>
#include <QImage>
#include <QString>
#include <cctype>
#include <filesystem>
#include <iostream>

#include "analysis/analysis_index.h"
#include "analysis_args.h"
#include "analysis_commands.h"
#include "picture/annotation_files.h"
#include "picture/picture.h"
#include "report/annotations.h"
#include "util/atomic_file.h"

namespace gapscope::cli {

namespace {

constexpr const char* kHelp =
    "Usage: gapscope-cli render TRACE --out FILE.png|FILE.svg [--range START:END]\n"
    "                  [--step N] [--tracks gpu|cpu|all|REGEX] [--width N] [--height N]\n"
    "                  [--scale 1|2] [--no-annotations] [--dark] [--min-gap-us N]\n"
    "  The picture File > Export Image makes, without a display: a title line, the\n"
    "  ruler, the tracks over the range (default: the whole trace) with the GPU's idle\n"
    "  gaps (>= --min-gap-us, default 100) shaded by cause, the annotations of the\n"
    "  trace's sidecar (TRACE.gapscope.json, or the viewer's copy in the user's data\n"
    "  folder when the trace's folder is read-only) and a legend. PNG at --scale 1 or 2\n"
    "  (device pixels per pixel), or SVG (vector, text as text) by the file name.\n"
    "  --tracks: gpu (the GPUs' streams and memory), cpu (the rest), all (default)\n"
    "  or a regular expression found in 'PROCESS / TRACK' (case-insensitive).\n"
    "  --width N pixels (default 1600); --height N pixels for the whole picture\n"
    "  (default: every chosen row, up to 16000). The file is written atomically.\n";

struct RenderArgs {
    std::string out;
    std::string tracks = "all";
    int width = 1600;
    int height = 0;
    int scale = 1;
    bool annotations = true;
    bool dark = false;
};

bool positiveInt(const std::string& text, int lo, int hi, int& out) {
    try {
        size_t used = 0;
        const long v = std::stol(text, &used);
        if (used != text.size() || v < lo || v > hi) return false;
        out = static_cast<int>(v);
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

std::string lowerExtension(const std::string& path) {
    std::string e = std::filesystem::path(path).extension().string();
    for (char& c : e)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return e;
}

}  // namespace

int runRender(int argc, char** argv) {
    if (printedHelp(argc, argv, kHelp)) return 0;
    RenderArgs r;
    std::vector<char*> rest;
    auto fail = [](const std::string& why) {
        std::cerr << "gapscope-cli render: " << why << "\n";
        return 1;
    };
    for (int i = 0; i < argc; ++i) {
        const std::string a = argv[i];
        const bool hasValue = i + 1 < argc;
        if (a == "--out" && hasValue) {
            r.out = argv[++i];
        } else if (a == "--tracks" && hasValue) {
            r.tracks = argv[++i];
        } else if (a == "--width" && hasValue) {
            if (!positiveInt(argv[++i], 400, 20000, r.width))
                return fail("--width takes 400 to 20000 pixels");
        } else if (a == "--height" && hasValue) {
            if (!positiveInt(argv[++i], 100, 20000, r.height))
                return fail("--height takes 100 to 20000 pixels");
        } else if (a == "--scale" && hasValue) {
            if (!positiveInt(argv[++i], 1, 2, r.scale)) return fail("--scale takes 1 or 2");
        } else if (a == "--no-annotations") {
            r.annotations = false;
        } else if (a == "--dark") {
            r.dark = true;
        } else {
            rest.push_back(argv[i]);
        }
    }
    if (r.out.empty()) return fail("--out FILE.png or FILE.svg is required (see --help)");
    const std::string ext = lowerExtension(r.out);
    if (ext != ".png" && ext != ".svg") return fail("--out must end in .png or .svg");
    auto args =
        parseAnalysisArgs("render", static_cast<int>(rest.size()), rest.data(), {"--min-gap-us"});
    if (!args) return 1;

    // The offscreen platform: no display is needed, whatever the session has.
    // Qt's own warnings (no XDG_RUNTIME_DIR, font substitutions) are not
    // this command's business; its errors go to stderr by themselves.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext&, const QString& text) {
        if (type == QtCriticalMsg || type == QtFatalMsg)
            std::cerr << "gapscope-cli render: " << text.toStdString() << "\n";
    });
    int qtArgc = 1;
    char qtName[] = "gapscope-cli";
    char* qtArgv[] = {qtName, nullptr};
    QGuiApplication app(qtArgc, qtArgv);

    const auto trace = loadOrReport(args->load);
    if (!trace) return 2;
    if (!applyStepWindow(*args, *trace, "render")) return 1;
    std::string error;
    const auto tracks = ui::selectTracks(*trace, r.tracks, &error);
    if (!tracks) return fail(error);

    ui::PictureSpec spec;
    spec.trace = trace;
    spec.range = args->range ? ui::TimeWindow{args->range->start, args->range->end}
                             : ui::TimeWindow{trace->spanStart,
                                              std::max(trace->spanEnd, trace->spanStart + 1)};
    spec.tracks = *tracks;
    spec.width = r.width;
    spec.height = r.height;
    spec.scale = r.scale;
    spec.dark = r.dark;
    spec.title = QString::fromStdString(std::filesystem::path(args->load.path).filename().string());
    spec.origin = trace->spanStart;
    spec.gapThreshold = args->minGapNs.value_or(kDefaultGapThresholdNs);
    spec.font = QGuiApplication::font();
    {
        const AnalysisIndex index(*trace);
        GapOptions o;
        o.minGapNs = spec.gapThreshold;
        o.index = &index;
        spec.gapColours = ui::gapCauseColours(*trace, o, r.dark);
    }
    if (r.annotations) {
        const SidecarRead read = readSidecar(ui::sidecarLocation(args->load.path).readPath);
        if (read.status == SidecarStatus::Loaded) {
            spec.annotations = read.annotations;
        } else if (read.status != SidecarStatus::Missing) {
            std::cerr << "gapscope-cli render: annotations left out: " << read.error << "\n";
        }
    }

    std::string bytes;
    if (ext == ".svg") {
        QString why;
        const QByteArray svg = ui::renderSvg(spec, &why);
        if (svg.isEmpty()) return fail(r.out + ": " + why.toStdString());
        bytes.assign(svg.constData(), static_cast<size_t>(svg.size()));
    } else {
        QString why;
        const QImage image = ui::renderPicture(spec, &why);
        if (image.isNull()) return fail(r.out + ": " + why.toStdString());
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        if (!image.save(&buffer, "PNG")) return fail(r.out + ": could not encode the PNG");
        bytes.assign(png.constData(), static_cast<size_t>(png.size()));
    }
    error = writeFileAtomically(r.out, bytes, Overwrite::Yes);
    if (!error.empty()) {
        std::cerr << "gapscope-cli render: " << r.out << ": " << error << "\n";
        return 2;
    }
    return 0;
}

}  // namespace gapscope::cli
