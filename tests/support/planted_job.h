#pragma once
// Planted traces whose critical path the tests know by arithmetic. A job
// of two ranks with a planted late rank: step 1 (1000 µs) on each rank, one all-reduce
// entered by rank 0 at 120 µs and by rank 1, the last, at 600 (after a
// 500 µs op), ending at 720 on both, then a synchronize on each. With
// `lateStart` rank 1's step itself starts at 300 µs, with no op before
// its launch. A whole Kineto trace (distributedInfo names its rank).

#include <string>

namespace gapscope::test {

std::string plantedRankOfJob(int rank, bool lateStart);

// One rank of a large job with planted slow ranks: three steps of 1000 µs
// (ProfilerStep#1..3 from 0, 1000, 2000 µs); in each, a gemm launched at
// +10 µs runs from +20 for 300 + (rank % 7) µs (700 on a slow rank), then
// the all-reduce runs from the gemm's end to +770 on every rank (50 µs
// after the slow ranks entered it). The others wait about 400 µs in each
// step for the slow ranks, which wait 0: their wait stands apart.
std::string plantedRankOfLargeJob(int rank, int ranks, bool slow);

// One step (1000 µs) of one process, as traceEvents' elements: mm at 100
// µs launches gemm (600 µs from 130); a synchronize from 200 returns at
// 740; at 900 a launch of k_tail (500 µs from 915), which runs past the
// step's end. Its path ends at the step's end: 990 µs.
extern const char* const kPlantedStepEvents;

}  // namespace gapscope::test
