#pragma once
// Every field of a loaded model as text, in a fixed order, ids included: two
// models are the same exactly when their dumps are byte-identical. Used to
// prove that the parallel loader and the index cache give the very model the
// single-threaded parse gives (`gapscope-cli dump`, tests).

#include <functional>
#include <string>

#include "model/trace.h"

namespace gapscope {

struct DumpOptions {
    bool argsText = true;  // include every args record's raw JSON (slow on huge traces)
    // Called for each args record whose text could not be read (the dump
    // line then says "unreadable: <why>").
    std::function<void(uint32_t argsIndex, const std::string& error)> onArgsError;
};

std::string canonicalDump(const Trace& trace, const DumpOptions& options = {});

}  // namespace gapscope
