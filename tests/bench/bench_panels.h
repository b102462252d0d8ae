#pragma once
// The analysis panels in the real main window (offscreen): after the load,
// how long until every panel shows the whole trace, how long a scope change
// to a step takes, and the longest the GUI thread went without processing
// events meanwhile (a timer's largest lateness).

#include <string>
#include <vector>

namespace gapscope::bench {

void printPanels(const std::vector<std::string>& files);

}  // namespace gapscope::bench
