#pragma once
// Placeholder text that can be read on any theme. A dark palette that sets
// its colours but not PlaceholderText (a KDE colour scheme read by an older
// platform theme, a palette made in code) keeps the light default, near
// black, on a near-black base: the search box's and filters' hints and the
// charts' "No data" vanish. Such a placeholder is replaced by the text
// colour blended halfway into the base, in every colour group.

#include <QPalette>

namespace gapscope::ui {

// WCAG's contrast ratio of two opaque colours (1 to 21).
double contrastRatio(const QColor& a, const QColor& b);

// `palette` with a placeholder of at least 3:1 against the base (WCAG's
// minimum for large text and hints); one that has it is kept as it is.
QPalette withLegiblePlaceholder(QPalette palette);

}  // namespace gapscope::ui
