#pragma once
// A compressed trace loads on three threads: one inflates the stream, one
// parses chunks of its text ahead, and one builds the model (and a fourth
// compresses args blocks now and then). On two cores the scheduler would
// share them evenly, and the inflating thread, whose bytes everything waits
// for, and the builder, the load's critical path, would be held back by the
// parsing ahead, which the builder does itself when it arrives first. The
// helpers that can wait (parsing ahead beside an inflating thread,
// compressing args) run a little below the others: they take what the
// others leave, and still run whenever those wait. Best effort: nothing
// happens where the system does not allow it.

namespace gapscope {

// Lowers the calling thread's priority a little (Linux: nice +4).
void lowerHelperThreadPriority() noexcept;

}  // namespace gapscope
