#pragma once
// GPU names and memory sizes from Kineto's top-level "deviceProperties" array.

#include <map>
#include <string>

#include "model/trace.h"

namespace gapscope {

// Device index -> name (e.g. 0 -> "NVIDIA H200"); empty without the array.
std::map<int, std::string> deviceNamesFromProperties(const Trace& trace);
// Device index -> its memory in bytes ("totalGlobalMem").
std::map<int, int64_t> deviceMemoryFromProperties(const Trace& trace);

}  // namespace gapscope
