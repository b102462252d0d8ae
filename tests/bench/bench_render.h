#pragma once
// `gapscope-cli render`'s work after the load, timed step by step: the
// analysis index, the gaps' causes, drawing the whole view, encoding the PNG
// (and the SVG), against the load of the same run.

#include <string>
#include <vector>

namespace gapscope::bench {

void printRender(const std::vector<std::string>& files);

}  // namespace gapscope::bench
