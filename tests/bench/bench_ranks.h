#pragma once
// The ranks of a job opened side by side (loader/rank_view.h) against the
// same files opened one by one, each in a child process: wall time (the
// files load on the cores at once) and peak RSS against the sum of the
// single-file peaks (the goal: about that sum).

#include <string>
#include <vector>

namespace gapscope::bench {

void printRanksTable(const std::vector<std::string>& files);

}  // namespace gapscope::bench
