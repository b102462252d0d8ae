#pragma once
// Slices named by a mangled C++ symbol ("_ZN7cutlass6KernelI…": some
// producers write kernel names so) take its demangled name, so that every
// view, analysis and export reads the same name.

namespace gapscope {

class Trace;

// Rewrites the names of the slices whose name demangles; the names stay
// interned. Costs a scan of the string table when no name is mangled.
void demangleSliceNames(Trace& trace);

}  // namespace gapscope
