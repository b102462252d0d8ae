#pragma once
// Writes XSpace protobufs (the TensorFlow / JAX profiler's *.xplane.pb) for
// tests and the benchmark: the project's own encoder, from the field numbers
// of xplane.proto, so fixtures can hold what profilers rarely write (every
// stat kind, ref_value strings, missing metadata, huge ids, hostile values).
// Like the C++ profilers it writes a plane's lines before its metadata.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gapscope::test {

struct XsStat {
    enum class Kind { Double, Uint64, Int64, Str, Bytes, Ref };
    int64_t metadataId = 0;
    Kind kind = Kind::Int64;
    double d = 0;
    uint64_t u = 0;  // Uint64, Ref (a stat metadata id)
    int64_t i = 0;
    std::string s;  // Str, Bytes

    static XsStat integer(int64_t id, int64_t v) {
        XsStat x;
        x.metadataId = id;
        x.i = v;
        return x;
    }
    static XsStat text(int64_t id, std::string v) {
        XsStat x;
        x.metadataId = id;
        x.kind = Kind::Str;
        x.s = std::move(v);
        return x;
    }
    static XsStat ref(int64_t id, uint64_t to) {
        XsStat x;
        x.metadataId = id;
        x.kind = Kind::Ref;
        x.u = to;
        return x;
    }
};

struct XsEvent {
    int64_t metadataId = 0;
    int64_t offsetPs = 0;
    int64_t durationPs = 0;
    std::optional<int64_t> numOccurrences;  // instead of offset_ps
    std::vector<XsStat> stats;
};

struct XsLine {
    int64_t id = 0;
    std::string name, displayName;
    int64_t displayId = 0;
    int64_t timestampNs = 0;
    std::vector<XsEvent> events;
};

struct XsEventMetadata {
    int64_t id = 0;
    std::string name, displayName;
    std::vector<XsStat> stats;
};

struct XsPlane {
    int64_t id = 0;
    std::string name;
    std::vector<XsLine> lines;
    std::vector<XsEventMetadata> eventMetadata;
    std::vector<std::pair<int64_t, std::string>> statMetadata;  // id, name
    std::vector<XsStat> stats;
};

struct XsSpace {
    std::vector<XsPlane> planes;
    std::vector<std::string> errors, warnings, hostnames;
};

std::string encodeXSpace(const XsSpace& space);

// Protobuf pieces, for hand-made hostile input.
std::string protoVarint(uint64_t v);
std::string protoField(uint32_t number, uint64_t varint);             // wire type 0
std::string protoBytes(uint32_t number, const std::string& payload);  // wire type 2

}  // namespace gapscope::test
