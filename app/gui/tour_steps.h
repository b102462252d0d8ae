#pragma once
// The main window's tour: the idle-gap shading, the Overview, the scope,
// the gap threshold and Details, in the order a first look needs them.

#include <vector>

#include "tour.h"

namespace gapscope::app {

class MainWindow;

std::vector<Tour::Step> mainWindowTour(MainWindow* window);

}  // namespace gapscope::app
