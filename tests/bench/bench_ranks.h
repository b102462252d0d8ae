#pragma once
// The ranks of a job opened side by side (loader/rank_view.h) against the
// same files opened one by one, each in a child process: wall time (the
// files load on the cores at once) and peak RSS against the sum of the
// single-file peaks (the goal: about that sum).

#include <string>
#include <vector>

namespace gapscope::bench {

void printRanksTable(const std::vector<std::string>& files);

// A job's ranks merged on all cores against one file of about the same
// size (`reference`), each in a child: wall time and peak RSS, as ratios
// to the one file's load per GB and to the bytes read (the goals: the job
// at the single-file rate, peak memory at most 0.4x the files); its first
// 256 ranks the same way; both reopened from the index cache against the
// one file reopened; and where each model's memory goes.
void printJobTable(const std::string& reference, std::vector<std::string> files);

}  // namespace gapscope::bench
