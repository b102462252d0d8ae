#pragma once
// A trace's annotations (markers at a time, notes on a range, notes on a
// slice) and their sidecar: for run.pt.trace.json.gz the file
// run.pt.trace.json.gz.gapscope.json beside it, a versioned JSON document.
// The trace itself is never written. A sidecar that cannot be read, or one
// from a newer version, is reported and must be kept as it is (mayReplace).

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "util/types.h"

namespace gapscope {

struct Annotation {
    enum class Kind { Marker, Range, Slice };
    Kind kind = Kind::Marker;
    uint64_t id = 0;                // unique within the sidecar
    TimeNs start = 0, end = 0;      // absolute ns; a marker has end == start
    std::string track, slice;       // a slice note's track and slice names
    std::string text;               // UTF-8, may hold line breaks
    std::string color = "#e69f00";  // #rrggbb
    bool operator==(const Annotation&) const = default;
};

const char* annotationKindName(Annotation::Kind kind);  // "marker", "range", "slice"

inline constexpr int kSidecarVersion = 1;
inline constexpr size_t kMaxSidecarBytes = size_t{64} << 20;
inline constexpr size_t kMaxAnnotationText = size_t{64} << 10;

std::string sidecarPathFor(const std::string& tracePath);

enum class SidecarStatus { Missing, Loaded, Unreadable, Newer };

struct SidecarRead {
    SidecarStatus status = SidecarStatus::Missing;
    std::vector<Annotation> annotations;
    std::string error;  // "FILE: where: what" when Unreadable or Newer
};

SidecarRead readSidecar(const std::string& path);
// Only a missing or a readable sidecar of this version may be replaced.
inline bool mayReplace(SidecarStatus s) {
    return s == SidecarStatus::Missing || s == SidecarStatus::Loaded;
}

std::string serializeAnnotations(const std::vector<Annotation>& annotations,
                                 const std::string& traceName);
// Atomically (temporary file + rename); "" on success, else why not.
std::string writeSidecar(const std::string& path, const std::vector<Annotation>& annotations,
                         const std::string& traceName);

// Where a trace's sidecar goes: beside the trace, or, when that folder
// cannot be written, in `fallbackDir` under a name made from the trace's
// absolute path (two traces of one name in two folders do not collide).
// In the fallback case the annotations are read from the fallback file once
// it exists, and before that from a sidecar beside the trace (one shipped
// with a trace on a read-only share), so that they are seen and the first
// change copies them over.
struct SidecarLocation {
    std::string path;      // where changes are saved
    std::string readPath;  // where the annotations are read from
    bool fallback = false;
};
SidecarLocation locateSidecar(const std::string& tracePath, const std::string& fallbackDir,
                              const std::function<bool(const std::string& folder)>& canWrite);
// Whether a file can be created in `folder` (tried, not guessed from modes:
// root may write where the mode says no, a read-only mount refuses anyone).
bool folderWritable(const std::string& folder);

}  // namespace gapscope
