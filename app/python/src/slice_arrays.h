#pragma once
// The trace's slices (and tracks) as columns for pandas: NumPy arrays
// filled here, names and kinds as categorical codes with their categories,
// so that two million slices cost no Python object each.

#include <pybind11/pybind11.h>

#include <optional>
#include <string>

#include "model/trace.h"

namespace gapscope::python {

struct SliceQuery {
    std::optional<std::string> kind;        // "kernel", "cpu_op", … (sliceKindName)
    std::optional<std::string> name;        // exactly this name
    std::optional<std::string> nameRegex;   // names where this matches (ECMAScript search)
    std::optional<TimeNs> start, end;       // overlapping [start, end), absolute ns
    std::optional<uint32_t> track;          // this track (tracks()' index)
    std::optional<std::string> trackRegex;  // tracks whose label this matches
};

// {"columns": {key: array}, "names": [...], "kinds": [...], "categories": [...]}:
// slice, track, depth, start_ns, end_ns, dur_ns, and the codes name, kind,
// category into those lists; in track order, each track's by row.
// Throws ValueError on an unknown kind or a bad regular expression.
pybind11::dict sliceArrays(const Trace& trace, const SliceQuery& query);

// One entry per track: track, label, kind, process, thread, rank, gpu, slices.
pybind11::dict trackColumns(const Trace& trace);

}  // namespace gapscope::python
