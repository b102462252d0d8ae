#pragma once
// GPU names from Kineto's top-level "deviceProperties" array.

#include <map>
#include <string>

#include "model/trace.h"

namespace gapscope {

// Device index -> name (e.g. 0 -> "NVIDIA H200"); empty without the array.
std::map<int, std::string> deviceNamesFromProperties(const Trace& trace);

}  // namespace gapscope
