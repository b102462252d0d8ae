#pragma once
// What the GUI thread pays while a person works: a range summary of the
// whole trace and of 1 % of it (on the worker), and the GUI thread's time
// per Shift+drag mouse event in the real main window.

#include <string>
#include <vector>

namespace gapscope::bench {

void printInteraction(const std::vector<std::string>& files, bool quick);

}  // namespace gapscope::bench
