#pragma once
// The one way to open a trace: read (decompress + tokenize), build, index.
// Used alike by the GUI (on a worker thread), the CLI and the benchmarks.

#include <memory>
#include <optional>
#include <string>

#include "model/trace.h"
#include "util/cancel_token.h"

namespace gapscope {

struct LoadOptions {
    const CancelToken* cancel = nullptr;
    ProgressCallback progress;
    size_t maxEventBytes = 1u << 30;
};

struct LoadFailure {
    std::string path;
    std::string where;  // "byte 123", "open", ...
    std::string what;
    // "<path>: <where>: <what>", the form every front end shows.
    std::string message() const { return path + ": " + where + ": " + what; }
};

struct LoadResult {
    std::shared_ptr<const Trace> trace;  // null on failure or cancel
    std::optional<LoadFailure> failure;
    bool cancelled = false;
};

LoadResult loadTrace(const std::string& path, const LoadOptions& options = {});

}  // namespace gapscope
