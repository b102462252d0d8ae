#pragma once
// Args are kept as raw JSON text and parsed only when a person looks at one
// event (a details panel, a tooltip, a CLI query).

#include <string>

#include "model/trace.h"

namespace gapscope {

// The args of `argsIndex` pretty-printed (2-space indent, keys in file
// order); "" when there are none. Malformed text is returned as it is; an
// args text that could not be read keeps its error.
ArgsText prettyArgs(const Trace& trace, uint32_t argsIndex);

}  // namespace gapscope
