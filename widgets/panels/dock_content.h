#pragma once
// A dock's contents that fit any screen: a panel stacks a header, figures, a
// chart and a table, and the window's minimum size is the sum of its docks'
// minimums, so a panel taller than a laptop's screen would hold the window
// above the screen. In a frameless scroll area the panel takes the dock's
// size when it fits and scrolls when it does not; the window's minimum stays
// the timeline's.

#include <QScrollArea>

namespace gapscope::ui {

// `content` inside a frameless scroll area that resizes it (parented to it).
QScrollArea* fittingDockContent(QWidget* content);

}  // namespace gapscope::ui
