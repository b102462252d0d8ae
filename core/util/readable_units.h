#pragma once
// The one way Gapscope writes a duration, a size or a share for a person:
// "189.21 ms", "96.0 MiB", "12.3 %". The CLI, the reports, Advice's
// sentences and the panels all call these, so a figure reads the same in
// every view. Machine-readable outputs keep integer ns and bytes instead.

#include <cstdint>
#include <string>

#include "util/types.h"

namespace gapscope {

// "850 ns", "20.30 µs", "189.21 ms", "1.42 s": two decimals above 1 µs,
// moving up a unit where rounding reaches 1000 (999.996 µs is "1.00 ms").
std::string readableDuration(TimeNs ns);
// The same with the decimals that keep `resolution` visible ("2.000 s" for
// a resolution of 1 ms; 0: as above): the ruler's and the timeline's labels.
std::string readableDuration(TimeNs ns, TimeNs resolution);
// A ruler label: `relative` in the unit of the tick `step` (so the labels of
// one ruler share a unit), with the decimals the step needs.
std::string readableOffset(TimeNs relative, TimeNs step);
// "512 B", "3.5 KiB", "96.0 MiB", "4.02 GiB" (binary units).
std::string readableBytes(double bytes);
// 0.1234 -> "12.3 %" (one decimal).
std::string readablePercent(double share);
// 12345678 -> "12 345 678", grouped by thin spaces (U+2009).
std::string readableCount(int64_t count);

}  // namespace gapscope
