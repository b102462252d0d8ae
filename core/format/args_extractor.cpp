// Pulls the handful of args that analyses need out of the raw args JSON:
// process/thread metadata (M), counter series (C), GPU launch parameters and
// ids (Kineto kernel / memcpy / runtime events) and [memory] totals.

#include <charconv>
#include <cmath>
#include <string>

#include "format/event_parser.h"
#include "format/tensorflow_stats.h"
#include "util/decimal_time.h"

namespace gapscope {
namespace {

using json::Value;
using json::ValueKind;

bool toInt64(const Value& v, int64_t& out) {
    if (v.kind != ValueKind::Number && v.kind != ValueKind::String) return false;
    const DecimalResult r = parseInteger(v.text);
    if (r.status != DecimalStatus::Ok) return false;
    out = r.value;
    return true;
}

bool toInt32(const Value& v, int32_t& out) {
    int64_t wide = 0;
    if (!toInt64(v, wide) || wide < INT32_MIN || wide > INT32_MAX) return false;
    out = static_cast<int32_t>(wide);
    return true;
}

bool toDouble(const Value& v, double& out) {
    if (v.kind != ValueKind::Number && v.kind != ValueKind::String) return false;
    const char* b = v.text.data();
    const char* e = b + v.text.size();
    if (b != e && *b == '+' && e - b > 1 && e[-1] != '+') ++b;  // "+10.5" (from_chars takes no '+')
    const auto r = std::from_chars(b, e, out);
    return r.ec == std::errc() && r.ptr == e && std::isfinite(out);
}

// "[1, 2, 3]" -> three ints; shorter arrays leave the rest untouched.
void toDim3(const Value& v, int32_t (&out)[3]) {
    if (v.kind != ValueKind::Array) return;
    json::Cursor c{v.text.data() + 1, v.text.data() + v.text.size()};
    std::string scratch;
    for (int i = 0; i < 3; ++i) {
        json::skipWs(c);
        if (c.p < c.end && *c.p == ',') ++c.p;
        Value elem;
        if (json::readValue(c, scratch, elem) != json::Status::Ok) return;
        toInt32(elem, out[i]);
    }
}

// What args mean depends on ph: M names a process or thread, C holds
// counter values, everything else may carry the ids analyses need.
enum class ArgsKind { Metadata, Counters, Known };

ArgsKind argsKindOf(Phase phase) {
    if (phase == Phase::Metadata) return ArgsKind::Metadata;
    if (phase == Phase::Counter) return ArgsKind::Counters;
    return ArgsKind::Known;
}

void metadataMember(RawEvent& ev, std::string_view key, const Value& v) {
    // Copies: an unescaped value is a view of the caller's scratch.
    if (key == "name" && v.kind == ValueKind::String) {
        ev.metaNameStorage.assign(v.text);
        ev.metaName = ev.metaNameStorage;
        ev.hasMetaName = true;
    } else if (key == "labels" && v.kind == ValueKind::String) {
        ev.metaLabelsStorage.assign(v.text);
        ev.metaLabels = ev.metaLabelsStorage;
        ev.hasMetaLabels = true;
    } else if (key == "sort_index") {
        ev.hasSortIndex = toInt64(v, ev.sortIndex);
    }
}

// `keyIsInput`: the key is a view of the input (no escapes), which lives
// as long as the event's other views; else it is copied.
void counterMember(RawEvent& ev, std::string_view key, const Value& v, bool keyIsInput) {
    double d = 0;
    if (!toDouble(v, d)) return;
    if (!keyIsInput) key = ev.keyStorage.emplace_back(key);
    ev.counterValues.push_back({key, d});
}

// A string member's text, owned by the event: an escaped string's text
// lives in the parser's scratch only until its next member.
std::string_view ownText(RawEvent& ev, std::string_view text) {
    return ev.keyStorage.emplace_back(text);
}

// Returns whether the member is one of the ids and launch parameters.
bool knownMember(RawEvent& ev, std::string_view key, const Value& v) {
    ExtractedArgs& k = ev.known;
    bool any = false;
    switch (key.size()) {
        case 4:
            if (key == "grid") any = true, toDim3(v, k.grid);
            if (key == "Addr") {
                int64_t a = -1;  // (a user-space address fits; a negative one is no address)
                if (toInt64(v, a) && a >= 0) {
                    ev.memAddress = static_cast<uint64_t>(a);
                    ev.hasMemAddress = true;
                }
            }
            break;
        case 5:
            if (key == "block") any = true, toDim3(v, k.block);
            if (key == "bytes") any |= toInt64(v, k.bytes);
            if (key == "Bytes") toInt64(v, ev.memBytes);
            if (key == "dtype" && v.kind == ValueKind::String)
                ev.collectiveType = ownText(ev, v.text);
            if (key == "flops") {
                double d = 0;
                if (toDouble(v, d) && d >= 0) ev.flops = d;
            }
            break;
        case 6:
            if (key == "device") any |= toInt32(v, k.device);
            if (key == "stream") any |= toInt32(v, k.stream);
            break;
        case 8:
            if (key == tensorflow::kStepNumberStat &&
                (v.kind == ValueKind::Number || v.kind == ValueKind::String)) {
                k.stepNumber = tensorflow::stepNumberOf(v.text, v.kind == ValueKind::Number);
                any |= k.stepNumber >= 0;
            }
            break;
        case 9:
            if (key == "Device Id") toInt32(v, ev.memDeviceId);
            break;
        case 10:
            if (key == "Group size") toInt64(v, ev.collectiveGroup);
            if (v.kind != ValueKind::Array) break;
            if (key == "Input Dims") ev.inputDims = v.text;
            if (key == "Input type") ev.inputTypes = v.text;
            break;
        case 11:
            if (key == "correlation") any |= toInt64(v, k.correlation);
            if (key == "External id") any |= toInt64(v, k.externalId);
            if (key == "Device Type") toInt32(v, ev.memDeviceType);
            break;
        case 13:
            if (key == "shared memory") any |= toInt64(v, k.sharedMemory);
            if (key == "In msg nelems") toInt64(v, ev.collectiveIn);
            break;
        case 14:
            if (key == "Total Reserved") toInt64(v, ev.memTotalReserved);
            if (key == "Out msg nelems") toInt64(v, ev.collectiveOut);
            if (key == "bytes_accessed") {
                double d = 0;
                if (toDouble(v, d) && d >= 0) ev.bytesAccessed = d;
            }
            // The TensorFlow profiler's stats, as its trace viewer's JSON keeps them.
            if (key == tensorflow::kCorrelationStat) any |= toInt64(v, k.correlation);
            if (v.kind == ValueKind::String) any |= tensorflow::readDetailsStat(key, v.text, k);
            break;
        case 16:
            if (v.kind == ValueKind::String) any |= tensorflow::readDetailsStat(key, v.text, k);
            break;
        case 15:
            if (key == "Total Allocated") toInt64(v, ev.memTotalAllocated);
            if (key == "Concrete Inputs" && v.kind == ValueKind::Array) ev.concreteInputs = v.text;
            if (key == "Collective name" && v.kind == ValueKind::String)
                ev.collectiveName = ownText(ev, v.text);
            break;
        case 17:
            if (key == "shape_with_layout" && v.kind == ValueKind::String)
                ev.resultShape = ownText(ev, v.text);
            break;
        case 20:
            if (key == "registers per thread") any |= toInt32(v, k.registersPerThread);
            break;
        case 25:
            if (key == "est. achieved occupancy %") {
                double d = 0;
                if (toDouble(v, d)) {
                    k.occupancyPercent = static_cast<float>(d);
                    any = true;
                }
            }
            break;
        default:
            break;
    }
    return any;
}

// The members of one args object, handed over one at a time.
class ArgsMembers {
  public:
    ArgsMembers(RawEvent& ev, ArgsKind kind) : ev_(ev), kind_(kind) {}
    void add(std::string_view key, const Value& v, bool keyIsInput) {
        switch (kind_) {
            case ArgsKind::Metadata:
                metadataMember(ev_, key, v);
                break;
            case ArgsKind::Counters:
                counterMember(ev_, key, v, keyIsInput);
                break;
            case ArgsKind::Known:
                known_ |= knownMember(ev_, key, v);
                break;
        }
    }
    // After the last member, or where the object stopped making sense.
    void done() {
        if (kind_ == ArgsKind::Known) ev_.hasKnown = known_;
    }

  private:
    RawEvent& ev_;
    ArgsKind kind_;
    bool known_ = false;
};

}  // namespace

void extractArgs(RawEvent& ev) {
    if (ev.args.size() <= 2) return;  // absent or "{}"
    ArgsMembers members(ev, argsKindOf(ev.phase));
    const char* begin = ev.args.data();
    const char* end = begin + ev.args.size();
    json::forEachMember(ev.args, [&](std::string_view key, const Value& v) {
        members.add(key, v, key.data() >= begin && key.data() + key.size() <= end);
    });
    members.done();
}

void clearExtractedArgs(RawEvent& ev) {
    const RawEventFields none;
    ev.known = none.known;
    ev.hasKnown = false;
    ev.metaName = ev.metaLabels = {};
    ev.hasMetaName = ev.hasMetaLabels = ev.hasSortIndex = false;
    ev.sortIndex = none.sortIndex;
    ev.memTotalAllocated = none.memTotalAllocated;
    ev.memTotalReserved = none.memTotalReserved;
    ev.memDeviceType = none.memDeviceType;
    ev.memDeviceId = none.memDeviceId;
    ev.memBytes = none.memBytes;
    ev.memAddress = none.memAddress;
    ev.hasMemAddress = none.hasMemAddress;
    ev.memOpName = none.memOpName;
    ev.inputDims = ev.inputTypes = ev.concreteInputs = {};
    ev.flops = none.flops;
    ev.bytesAccessed = none.bytesAccessed;
    ev.resultShape = {};
    ev.collectiveName = ev.collectiveType = {};
    ev.collectiveIn = ev.collectiveOut = ev.collectiveGroup = -1;
    ev.counterValues.clear();
    ev.keyStorage.clear();
}

json::Status extractArgsInPlace(json::Cursor& c, RawEvent& ev, std::string& keyScratch,
                                std::string& valueScratch) {
    using json::Status;
    json::Cursor w = c;
    ++w.p;  // '{'
    ArgsMembers members(ev, argsKindOf(ev.phase));
    for (;;) {
        std::string_view key;
        bool closed = false;
        Status s = json::readMemberKey(w, keyScratch, key, closed, "a key string or '}'");
        if (s == Status::Ok && closed) {
            members.done();
            c.p = w.p;
            return Status::Ok;
        }
        Value v;
        if (s == Status::Ok) {
            if (!json::startsNonFinite(w) && (*w.p == '-' || (*w.p >= '0' && *w.p <= '9'))) {
                // In a stream a number may go on past the bytes there are.
                v.kind = ValueKind::Number;
                s = json::scanNumber(w, v.text);
            } else {
                s = json::readValue(w, valueScratch, v);
            }
        }
        if (s == Status::NeedMore) return s;
        if (s == Status::Error) {
            members.done();
            return s;
        }
        members.add(key, v, key.data() >= c.p && key.data() + key.size() <= c.end);
    }
}

}  // namespace gapscope
