#pragma once
// What the TensorFlow profiler's stats say that analyses need, whichever
// file carries them: an XSpace event's stats, or the args of the trace
// viewer's JSON made from it (TensorBoard, XProf), which keep the stats'
// names. One reading of each, so a run loads to the same figures from
// either file.

#include <cstdint>
#include <string_view>

#include "format/extracted_args.h"

namespace gapscope::tensorflow {

// The GPU op an event is the launch or the run of: "correlation_id".
inline constexpr std::string_view kCorrelationStat = "correlation_id";

// A training step's number, on the train / test markers: "step_num".
inline constexpr std::string_view kStepNumberStat = "step_num";
// Its value: digits, written as a string or as a number, a number
// sometimes with a zero fraction (5.0); -1 for anything else, or beyond
// 2^31 - 1 (the model keeps 32 bits).
int64_t stepNumberOf(std::string_view text, bool isNumber);

// A text stat's details: kernel_details ("regs:38 shm:0 grid:160,1,1
// block:1024,1,1"; newer ones static_shared / dynamic_shared / occ_pct)
// into the launch parameters; memcpy_details, memset_details and
// memalloc_details ("size:N" or "num_bytes:N") into the bytes. True when
// `name` is one of them.
bool readDetailsStat(std::string_view name, std::string_view text, ExtractedArgs& known);

}  // namespace gapscope::tensorflow
