// gapscope-bench: how fast and how small is opening, indexing, drawing and
// working with a trace, next to references measured in the same run
// (reading the file, `zstd -dc` / `gzip -dc`, the load itself), so the
// figures survive a noisy machine. Build with the release preset.
//
//   gapscope-bench [--frames] [--interaction] [--analyses] [--panels] [--render] [--quick]
//                  TRACE...
//
//   (always)       loads: parse, cache write, reopen, peak RSS (bench_load)
//   --frames       frame times at five zooms, the GPU busy union, and a
//                  counter series of 10 M samples (bench_frames)
//   --interaction  range summaries and the GUI thread's time per Shift+drag
//                  event in the real window (bench_interaction)
//   --analyses     every analysis over the whole trace and 1 % of it, as a
//                  share of the load time (bench_analyses)
//   --panels       the analysis panels in the real window: whole trace after
//                  the load, a scope change to a step, GUI stalls (bench_panels)
//   --render       `gapscope-cli render`'s work after the load, step by step
//                  (bench_render)
//   --only NAME    only the analyses whose name holds NAME, nothing else
//                  (to profile one)
//   --quick        fewer repeats (CI smoke test)

#include <QApplication>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_analyses.h"
#include "bench_frames.h"
#include "bench_interaction.h"
#include "bench_load.h"
#include "bench_panels.h"
#include "bench_ranks.h"
#include "bench_render.h"
#include "bench_xspace.h"
#include "timed_application.h"

using namespace gapscope::bench;

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    TimedApplication app(argc, argv);
    bool frames = false, interaction = false, analyses = false, panels = false, render = false,
         quick = false, xspace = false, ranks = false;
    std::string jobReference;  // --job ONE_FILE
    std::string only;          // --only NAME: the analyses whose name holds it
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--frames")
            frames = true;
        else if (a == "--interaction")
            interaction = true;
        else if (a == "--panels")
            panels = true;
        else if (a == "--render")
            render = true;
        else if (a == "--analyses")
            analyses = true;
        else if (a == "--quick")
            quick = true;
        else if (a == "--xspace")
            xspace = true;
        else if (a == "--ranks")
            ranks = true;
        else if (a == "--only" && i + 1 < argc)
            only = argv[++i];
        else if (a == "--job" && i + 1 < argc)
            jobReference = argv[++i];
        else
            files.push_back(a);
    }
    if (files.empty() && xspace) {
        printXSpaceTable(quick ? 100'000 : 1'000'000);
        return 0;
    }
    if (files.empty()) {
        std::fprintf(
            stderr,
            "usage: gapscope-bench [--frames] [--interaction] [--analyses] [--panels] [--render] "
            "[--xspace] [--quick] TRACE...\n"
            "       gapscope-bench --only NAME TRACE...   (only the analyses whose name holds "
            "NAME)\n"
            "       gapscope-bench --ranks RANK_TRACE...   (the ranks of one job side by side)\n"
            "       gapscope-bench --job ONE_FILE RANK_TRACE...   (a job against one file of\n"
            "                      about its size, each loaded once in a child)\n");
        return 1;
    }
    if (!jobReference.empty()) {  // a job against one file of its size
        printJobTable(jobReference, files);
        return 0;
    }
    if (ranks) {  // the files are the ranks of one job
        printRanksTable(files);
        return 0;
    }
    if (!only.empty()) {  // one analysis, for a profile of it
        printAnalyses(files, quick, only);
        return 0;
    }
    printLoadTable(files);
    if (frames) {
        printFrameTable(files, quick);
        printCounterFrames(quick ? 1'000'000 : 10'000'000, quick);
    }
    if (interaction) printInteraction(files, quick);
    if (analyses) printAnalyses(files, quick);
    if (panels) printPanels(files);
    if (render) printRender(files);
    if (xspace) printXSpaceTable(quick ? 100'000 : 1'000'000);
    return 0;
}
