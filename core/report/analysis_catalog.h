#pragma once
// What the documents made of several analyses compute (the summary, the
// ranks side by side), written once for gapscope-cli's usage and the
// viewer's panels. Single analyses describe themselves in their
// registration (report/analysis_registry.h).

#include <string_view>

namespace gapscope {

struct AnalysisInfo {
    std::string_view id;  // the gapscope-cli command
    const char* what;     // lines of the usage text, '\n' between them
};

inline constexpr AnalysisInfo kAnalysisCatalog[] = {
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
