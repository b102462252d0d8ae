#pragma once
// One XPlane's meaning, shared by the reader (at load) and the args decoder
// (when a person looks at an event): what its event and stat metadata ids
// name, one event's fields, one stat's name and value, and an event's stats
// composed into JSON args. Nothing here owns bytes: views point into the
// plane (or into wherever its metadata was read to), which outlives them.

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "format/xspace/xspace_stats.h"
#include "format/xspace/xspace_wire.h"

namespace gapscope::xspace {

// An event_metadata entry: the name its events show and the stats each of
// them has.
struct EventMeta {
    std::string_view name, displayName;
    std::vector<Span> stats;
    std::string_view shownName() const { return displayName.empty() ? name : displayName; }
};

class PlaneNames {
  public:
    void clear();
    // One entry of the plane's event_metadata (`ofEvents`) or stat_metadata
    // map; a later entry with the same key replaces an earlier one, as in
    // protobuf.
    void addEntry(const wire::Field& entry, bool ofEvents);
    const EventMeta* event(int64_t id) const;
    const std::string_view* stat(int64_t id) const;

  private:
    std::unordered_map<int64_t, EventMeta> events_;
    std::unordered_map<int64_t, std::string_view> stats_;
};

// Where a plane's line lies: in memory (`bytes`), or only located in the
// file (`bytes` empty), to be read when its turn comes.
struct LineAt {
    uint64_t offset = 0, length = 0;
    std::string_view bytes;
};

// A plane's own fields: its name, its names, its stats and its lines.
struct PlaneParts {
    std::string_view name;
    PlaneNames names;
    std::vector<Span> stats;
    std::vector<LineAt> lines;
    void clear();
};

// The parts of a plane held in memory (`offset`: where it lies in the input).
void readPlane(std::string_view plane, uint64_t offset, PlaneParts& out);

// An XEvent's own fields.
struct EventFields {
    int64_t metadataId = 0, offsetPs = 0, durationPs = 0;
    bool aggregate = false;  // num_occurrences and no offset: a count, not a time
    std::vector<Span> stats;
};
void decodeEventFields(const Span& event, EventFields& out);

// One XStat's value, and its name from the plane ("" when the plane has no
// metadata for it). `missing`: its name, or the text its ref_value points
// at, is not in the plane.
std::string_view decodeStat(const Span& stat, const PlaneNames& names, StatValue& value,
                            bool& missing);

// What a stat the plane cannot name is called in args: "stat@OFFSET".
std::string unnamedStat(uint64_t offset);

// Stats written as one JSON object, at most kMaxBytes: a metadata entry with
// a million stats would otherwise be written out again for every event that
// names it.
class ArgsJson {
  public:
    static constexpr size_t kMaxBytes = 64u << 10;

    // Starts from an earlier object's members ("{..." without its brace),
    // which were `cut` already.
    void startFrom(std::string_view open, bool cut = false);
    // Adds `"name": value`; false (the stat left out, and a note once) when
    // the object is already over kMaxBytes.
    bool add(std::string_view name, const StatValue& value);
    bool empty() const { return first_; }
    bool cut() const { return cut_; }
    // The members so far, without the closing brace ("" when none).
    const std::string& open() const { return text_; }
    // The whole object, "" when it has no member.
    std::string close() &&;

  private:
    std::string text_;
    bool first_ = true;
    bool cut_ = false;
};

// The args of one event as a person sees them: its metadata entry's stats,
// its own stats, and its metadata's name as "long_name" when a display name
// is shown instead ("" when there are none); `cut` when over ArgsJson::kMaxBytes.
struct ComposedArgs {
    std::string json;
    bool cut = false;
};
ComposedArgs composeEventArgs(const PlaneNames& names, const Span& event);

}  // namespace gapscope::xspace
