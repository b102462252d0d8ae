#pragma once
// Which tracks an exported picture shows: "all", "gpu" (the GPU devices'
// streams and memory), "cpu" (everything else), or a regular expression
// (ECMAScript, case-insensitive) that must be found in "PROCESS / TRACK"
// (for a counter "PROCESS / COUNTER"), the names the timeline shows.

#include <optional>
#include <string>
#include <vector>

#include "model/trace.h"

namespace gapscope::ui {

struct TrackSelection {
    std::vector<uint8_t> tracks;    // per track: 1 = shown; empty: all
    std::vector<uint8_t> counters;  // per counter series
    bool all() const { return tracks.empty() && counters.empty(); }
};

// nullopt, with why in `error`, when `spec` is not a valid expression or
// selects nothing.
std::optional<TrackSelection> selectTracks(const Trace& trace, const std::string& spec,
                                           std::string* error);

}  // namespace gapscope::ui
