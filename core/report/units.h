#pragma once
// Durations and sizes for people: "189.21 ms", "4.02 GiB" (3-4 figures);
// machine-readable outputs keep integer ns and bytes instead.

#include <cstdint>
#include <string>

#include "util/types.h"

namespace gapscope {

std::string readableDuration(TimeNs ns);    // "850 ns", "20.30 µs", "189.21 ms", "1.420 s"
std::string readableBytes(uint64_t bytes);  // "512 B", "3.5 KiB", "96.0 MiB", "4.02 GiB"

}  // namespace gapscope
