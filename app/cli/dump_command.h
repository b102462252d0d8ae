#pragma once
// `gapscope-cli dump TRACE`: the canonical dump of the model (see
// report/canonical_dump.h), to compare loaders and the index cache.

namespace gapscope::cli {

int runDump(int argc, char** argv);

}  // namespace gapscope::cli
