#pragma once
// What each analysis computes, in one line per sentence part, written once:
// gapscope-cli's usage, its man page and shell completions (through
// --help) and the viewer's panels (their header's tooltip) all read it.

#include <string_view>

namespace gapscope {

struct AnalysisInfo {
    std::string_view id;  // the gapscope-cli command
    const char* what;     // lines of the usage text, '\n' between them
};

inline constexpr AnalysisInfo kAnalysisCatalog[] = {
    {"gaps",
     "each GPU's idle gaps with their cause (input,\nsynchronization, communication, host, "
     "other) and the\nevidence"},
    {"timeline",
     "GPU time breakdown per device: computation, exposed\ncommunication and memcpy, idle "
     "(they add up exactly)"},
    {"kernels",
     "kernel statistics per name (count, total, mean, min,\nmax, median, p95, stddev, shares, "
     "Tensor Cores, launch\nparameters, the CPU op that launched it)"},
    {"memcpy", "copies and memsets: count, time, bytes, bandwidth,\ndirection, pageable or pinned"},
    {"ops", "op statistics: count, inclusive, self and GPU time"},
    {"steps", "steps with a breakdown that adds up to the step's GPU\nwindow, slow steps and why"},
    {"memory", "memory peaks per device, per step, growth"},
    {"pipeline", "input pipeline: time waiting for input and a verdict"},
    {"launch", "launch delays, tiny kernels"},
    {"health",
     "what the import repaired, dropped or found missing:\nevery check with its count, what it "
     "means and its\nfirst instances"},
    {"advice", "findings with their numbers and evidence"},
    {"summary",
     "the summary tables (GPU time, steps, top kernels and ops,\ninput pipeline, memory, "
     "advice) as md, csv, json or html"},
    {"ranks",
     "the ranks of a distributed job side by side: per rank and\nstep, GPU busy, idle by "
     "cause, communication, when each\nentered the step's collective; each step's straggler"},
};

// The analysis of that id; null for one the catalog lacks.
constexpr const AnalysisInfo* findAnalysis(std::string_view id) {
    for (const AnalysisInfo& a : kAnalysisCatalog)
        if (a.id == id) return &a;
    return nullptr;
}

// The analysis's description, for constant expressions (the CLI's command
// list): an id the catalog lacks does not compile.
// (No pointer comparison here: GCC's -fsanitize=undefined makes one
// non-constant.)
consteval const char* analysisWhat(std::string_view id) {
    for (const AnalysisInfo& a : kAnalysisCatalog)
        if (a.id == id) return a.what;
    throw "no such analysis in the catalog";
}

}  // namespace gapscope
