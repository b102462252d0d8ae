#pragma once
// Every analysis of core/analysis over the whole trace and over 1 % of it,
// as a share of the trace's load time measured in the same run (the
// targets: at most 10 % and 1 % of the load).

#include <string>
#include <vector>

namespace gapscope::bench {

// `only`: the analyses whose name holds it (all when empty).
void printAnalyses(const std::vector<std::string>& files, bool quick, const std::string& only = {});

}  // namespace gapscope::bench
