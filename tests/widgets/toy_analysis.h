#pragma once
// A toy analysis registered by a test and nowhere else: the longest
// slices of a trace with their count as the headline figure. The registry
// test finds it in every view without any other file naming it.

namespace gapscope::test {

// Registers "longest-slices" once (later calls do nothing).
void registerToyAnalysis();

}  // namespace gapscope::test
