// gapscope-cli render TRACE --out FILE.png|FILE.svg: the exported picture
// (title, ruler, tracks with GPU gaps shaded by cause, annotations, legend)
// drawn headlessly by the viewer's own painter on Qt's offscreen platform.

#include <cctype>
#include <filesystem>
#include <iostream>

#include "analysis_args.h"
#include "analysis_commands.h"
#include "render_picture.h"
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

    const std::shared_ptr<void> gui = offscreenGui("gapscope-cli render");

    const auto trace = loadOrReport(args->load);
    if (!trace) return 2;
    if (!applyStepWindow(*args, *trace, "render")) return 1;
    PictureRequest request;
    request.range = args->range;
    request.tracks = r.tracks;
    request.width = r.width;
    request.height = r.height;
    request.scale = r.scale;
    request.svg = ext == ".svg";
    request.dark = r.dark;
    request.annotations = r.annotations;
    request.minGapNs = args->minGapNs.value_or(kDefaultGapThresholdNs);
    request.tracePath = args->load.path;
    const Picture picture = renderTracePicture(trace, request);
    for (const std::string& w : picture.warnings)
        std::cerr << "gapscope-cli render: " << w << "\n";
    if (picture.bytes.empty())
        return fail(picture.badRequest ? picture.error : r.out + ": " + picture.error);
    const std::string error = writeFileAtomically(r.out, picture.bytes, Overwrite::Yes);
    if (!error.empty()) {
        std::cerr << "gapscope-cli render: " << r.out << ": " << error << "\n";
        return 2;
    }
    return 0;
}

}  // namespace gapscope::cli
