#pragma once
// GPU names and memory sizes from Kineto's top-level "deviceProperties" array.

#include <map>
#include <string>
#include <string_view>

#include "model/trace.h"

namespace gapscope {

// Device index -> name (e.g. 0 -> "NVIDIA H200"); empty without the array.
std::map<int, std::string> deviceNamesFromProperties(const Trace& trace);
// Device index -> its memory in bytes ("totalGlobalMem").
std::map<int, int64_t> deviceMemoryFromProperties(const Trace& trace);

// The model a person names a GPU by, for headers that must stay short:
// "Tesla V100-SXM2-16GB" -> "V100", "NVIDIA H100 80GB HBM3" -> "H100",
// "NVIDIA GeForce RTX 4090" -> "RTX 4090", "AMD Instinct MI250X" -> "MI250X".
std::string shortDeviceName(std::string_view name);

}  // namespace gapscope
