#include "format/xspace/xspace_plane.h"

namespace gapscope::xspace {

using wire::Field;
using wire::WireError;
using wire::WireType;

void PlaneNames::clear() {
    events_.clear();
    stats_.clear();
}

void PlaneNames::addEntry(const Field& entry, bool ofEvents) {
    wire::Reader r = wire::Reader::of(entry);
    Field f;
    int64_t key = 0;
    Span value;
    bool hasValue = false;
    while (r.next(f)) {
        if (f.number == 1) key = static_cast<int64_t>(varintOf(f, "a metadata key"));
        if (f.number == 2) {
            value = {bytesOf(f, "a metadata value"), f.payloadOffset};
            hasValue = true;
        }
    }
    EventMeta meta;
    std::string_view statName;
    if (hasValue) {
        wire::Reader m(value.bytes, value.offset);
        while (m.next(f)) {
            switch (f.number) {
                case MetadataField::kName:
                    (ofEvents ? meta.name : statName) = bytesOf(f, "a metadata name");
                    break;
                case MetadataField::kDisplayName:
                    if (ofEvents) meta.displayName = bytesOf(f, "a display_name");
                    break;
                case MetadataField::kStats:
                    if (ofEvents) meta.stats.push_back({bytesOf(f, "a stat"), f.payloadOffset});
                    break;
                default:
                    break;  // id (the key says it), metadata, description, child_id
            }
        }
    }
    if (ofEvents) {
        events_[key] = std::move(meta);
    } else {
        stats_[key] = statName;
    }
}

const EventMeta* PlaneNames::event(int64_t id) const {
    const auto it = events_.find(id);
    return it == events_.end() ? nullptr : &it->second;
}

const std::string_view* PlaneNames::stat(int64_t id) const {
    const auto it = stats_.find(id);
    return it == stats_.end() ? nullptr : &it->second;
}

void PlaneParts::clear() {
    name = {};
    names.clear();
    stats.clear();
    lines.clear();
}

void readPlane(std::string_view plane, uint64_t offset, PlaneParts& out) {
    out.clear();
    wire::Reader r(plane, offset);
    Field f;
    while (r.next(f)) {
        switch (f.number) {
            case PlaneField::kId:
                varintOf(f, "a plane's id");
                break;
            case PlaneField::kName:
                out.name = bytesOf(f, "a plane's name");
                break;
            case PlaneField::kLines:
                out.lines.push_back({f.payloadOffset, bytesOf(f, "a line").size(), f.bytes});
                break;
            case PlaneField::kEventMetadata:
            case PlaneField::kStatMetadata:
                bytesOf(
                    f, f.number == PlaneField::kEventMetadata ? "event metadata" : "stat metadata");
                out.names.addEntry(f, f.number == PlaneField::kEventMetadata);
                break;
            case PlaneField::kStats:
                out.stats.push_back({bytesOf(f, "a plane stat"), f.payloadOffset});
                break;
            default:
                break;
        }
    }
}

void decodeEventFields(const Span& span, EventFields& out) {
    wire::Reader r(span.bytes, span.offset);
    Field f;
    out.metadataId = out.offsetPs = out.durationPs = 0;
    out.aggregate = false;
    out.stats.clear();
    while (r.next(f)) {
        switch (f.number) {
            case EventField::kMetadataId:
                out.metadataId = static_cast<int64_t>(varintOf(f, "an event's metadata_id"));
                break;
            case EventField::kOffsetPs:
                out.offsetPs = static_cast<int64_t>(varintOf(f, "an event's offset_ps"));
                out.aggregate = false;
                break;
            case EventField::kDurationPs:
                out.durationPs = static_cast<int64_t>(varintOf(f, "an event's duration_ps"));
                break;
            case EventField::kStats:
                out.stats.push_back({bytesOf(f, "a stat"), f.payloadOffset});
                break;
            case EventField::kNumOccurrences:
                varintOf(f, "an event's num_occurrences");
                out.aggregate = true;
                break;
            default:
                break;
        }
    }
}

std::string_view decodeStat(const Span& span, const PlaneNames& names, StatValue& value,
                            bool& missing) {
    wire::Reader r(span.bytes, span.offset);
    Field f;
    int64_t id = 0;
    bool missingRef = false;
    value = StatValue{};
    while (r.next(f)) {
        switch (f.number) {
            case StatField::kMetadataId:
                id = static_cast<int64_t>(varintOf(f, "a stat's metadata_id"));
                break;
            case StatField::kDouble:
                if (f.type != WireType::Fixed64)
                    throw WireError(f.offset, "a stat's double_value is not 64-bit");
                value.kind = StatValue::Kind::Double;
                value.d = f.asDouble();
                break;
            case StatField::kUint64:
                value.kind = StatValue::Kind::Uint64;
                value.u = varintOf(f, "a stat's uint64_value");
                break;
            case StatField::kInt64:
                value.kind = StatValue::Kind::Int64;
                value.i = static_cast<int64_t>(varintOf(f, "a stat's int64_value"));
                break;
            case StatField::kStr:
                value.kind = StatValue::Kind::Text;
                value.text = bytesOf(f, "a stat's str_value");
                missingRef = false;  // the last value given is the value
                break;
            case StatField::kBytes:
                value.kind = StatValue::Kind::Bytes;
                value.text = bytesOf(f, "a stat's bytes_value");
                break;
            case StatField::kRef: {
                const auto* text =
                    names.stat(static_cast<int64_t>(varintOf(f, "a stat's ref_value")));
                value.kind = StatValue::Kind::Text;
                value.text = text ? *text : std::string_view();
                missingRef = text == nullptr;
                break;
            }
            default:
                break;  // a newer field: skipped
        }
    }
    const auto* name = names.stat(id);
    missing = name == nullptr || missingRef;
    return name ? *name : std::string_view();
}

std::string unnamedStat(uint64_t offset) {
    // Piece by piece: GCC 12 at -O3 warns (-Wrestrict, a known false
    // positive) on "literal" + std::to_string(...).
    std::string name("stat@");
    name.append(std::to_string(offset));
    return name;
}

void ArgsJson::startFrom(std::string_view open, bool cut) {
    text_.assign(open);
    first_ = open.empty();
    cut_ = cut;
}

bool ArgsJson::add(std::string_view name, const StatValue& value) {
    if (text_.size() > kMaxBytes) {
        if (!cut_) {
            appendStat(text_, false, "…",
                       StatValue::textOf("(more stats left out: over 64 KiB of args)"));
            cut_ = true;
        }
        return false;
    }
    if (first_) text_.assign(1, '{');
    appendStat(text_, first_, name, value);
    first_ = false;
    return true;
}

std::string ArgsJson::close() && {
    if (first_) return {};
    text_ += '}';
    return std::move(text_);
}

namespace {

void addStats(ArgsJson& args, const std::vector<Span>& stats, const PlaneNames& names) {
    StatValue value;
    bool missing = false;
    for (const Span& s : stats) {
        const std::string_view name = decodeStat(s, names, value, missing);
        if (!(name.empty() ? args.add(unnamedStat(s.offset), value) : args.add(name, value)))
            return;
    }
}

}  // namespace

ComposedArgs composeEventArgs(const PlaneNames& names, const Span& event) {
    EventFields fields;
    decodeEventFields(event, fields);
    ArgsJson args;
    const EventMeta* meta = names.event(fields.metadataId);
    if (meta) addStats(args, meta->stats, names);
    addStats(args, fields.stats, names);
    if (meta && !meta->displayName.empty()) args.add("long_name", StatValue::textOf(meta->name));
    const bool cut = args.cut();
    return {std::move(args).close(), cut};
}

}  // namespace gapscope::xspace
