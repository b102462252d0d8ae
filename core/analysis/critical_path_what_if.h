#pragma once
// "What if this were twice as fast?": parts of the critical path's graph
// scaled and the longest path found again on the graph (not the path's
// time less the part's: another chain may bound the step then). The
// projection assumes everything else unchanged: the same launches, the
// same waits, the same order.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/critical_path.h"

namespace gapscope {

struct WhatIf {
    enum class Part : uint8_t {
        Kernel,         // GPU work (kernels, copies, memsets) whose name matches
        Op,             // CPU ops and runtime calls whose name matches: their own time
        Input,          // the wait for input (a DataLoader's next) and the CPU work in it
        Launch,         // every launch overhead
        Communication,  // every collective kernel
        Rank,           // all the work of one rank (ranks merged into one trace)
    };
    Part part = Part::Kernel;
    std::string pattern;  // Kernel, Op: the name, `*` any run of characters
    double factor = 1;    // the time's new share: 0.5 halves it, 0 removes it
    int64_t rank = 0;     // Rank: its number
    // Rank: as fast as the median rank (its factor the median's duration
    // over its own, at most 1), not `factor`.
    bool median = false;
};

// "kernel:*gemm*=0.5", "op:aten::addmm=0.8", "input=0", "launch=0",
// "comm=0.5", "rank:3=median", "rank:3=0.8" (a factor from 0 to
// kMostWhatIfFactor: a step a thousand
// times slower is a question no one asks, and its times stay exact);
// none, with why, for anything else.
inline constexpr double kMostWhatIfFactor = 1000;
std::optional<WhatIf> parseWhatIf(std::string_view text, std::string& error);
// The grammar, for --help.
std::string whatIfGrammar();

struct Projection {
    TimeNs lengthNs = 0;
    std::array<TimeNs, kBoundByCount> byBound{};
    // The what-ifs (by index) that named nothing in the graph: a pattern no
    // name matches, a rank not in the trace, no input wait, …
    std::vector<size_t> unmatched;
};

Projection projectPath(const Trace& trace, const CriticalPath& path,
                       const std::vector<WhatIf>& whatIfs);

// Whether `name` matches `pattern`, whose `*` matches any run of characters.
bool matchesWildcard(std::string_view pattern, std::string_view name);

}  // namespace gapscope
