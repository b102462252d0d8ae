#pragma once
// The timeline's keys and mouse gestures, once: the keyboard sheet (`?`)
// is made from this list (tst_timeline_widget checks the sheet shows each,
// and the keys themselves in their own tests).

#include <array>

namespace gapscope::ui {

struct KeyBinding {
    const char* keys;  // as printed: "W / S"
    const char* what;
};

inline constexpr std::array<KeyBinding, 24> kKeyBindings = {{
    {"W / S", "zoom in / out at the cursor (Shift: faster)"},
    {"A / D", "pan left / right (Shift: faster)"},
    {"Ctrl+wheel", "zoom at the cursor"},
    {"wheel, Shift+wheel", "scroll tracks, pan in time"},
    {"drag", "pan (as a map; Shift+drag selects)"},
    {"Shift+drag", "select a time range: its summary in Details"},
    {"click", "select a slice: its details and flows"},
    {"Ctrl+click", "add a slice to the selection, or take it out: Details sums them"},
    {"double-click, F", "frame the selected slice or range"},
    {"0", "fit the whole trace"},
    {"\u2190 / \u2192", "previous / next slice on the same row"},
    {"\u2191 / \u2193", "the enclosing slice / its first child"},
    {"M", "mark the selected slice's span (again: unmark)"},
    {"Shift+M", "add a permanent marker at the cursor"},
    {"N", "add a note on the selection"},
    {"Esc", "clear the selection and the mark"},
    {"Alt+\u2190 / Alt+\u2192", "back / forward through the zoom history"},
    {"Ctrl+F", "search; Enter / Shift+Enter: next / previous match"},
    {"[ / ]", "the panels analyse the previous / next step"},
    {"Shift+Esc", "the panels analyse the whole trace"},
    {"drag a name", "move a process or a track (the names column)"},
    {"right-click a name", "pin to the top, hide, move, collapse all, filter tracks"},
    {"F5", "reload the trace"},
    {"?", "this sheet (Esc closes it)"},
}};

}  // namespace gapscope::ui
