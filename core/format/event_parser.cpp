#include "format/event_parser.h"

#include <cstring>
#include <optional>

#include "util/decimal_time.h"

namespace gapscope {

using json::Cursor;
using json::Status;

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && json::isWs(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && json::isWs(s.back()))
        s.remove_suffix(1);
    return s;
}

void setTime(RawTime& out, std::string_view text) {
    const DecimalResult r = parseMicrosToNanos(trim(text));
    out.valid = r.status == DecimalStatus::Ok;
    out.ns = r.value;
}

bool isIntegerText(std::string_view s) {
    if (!s.empty() && s.front() == '-') s.remove_prefix(1);
    if (s.empty()) return false;
    for (char ch : s) {
        if (ch < '0' || ch > '9') return false;
    }
    return true;
}

// A number at c.p in the common fixed-point form, read as it is found
// (parseSimplePrefix): Ok with `value` set and c.p after it, NeedMore, or
// nothing (c.p unchanged) for any other form, read the general way.
// `integer`: one with a fraction is another form.
std::optional<Status> readSimpleNumber(Cursor& c, int scale, bool integer, int64_t& value) {
    const char* stop = nullptr;
    int64_t v = 0;
    switch (parseSimplePrefix(c.p, c.end, scale, v, stop)) {
        case PrefixStatus::Ok:
            if (integer && std::memchr(c.p, '.', static_cast<size_t>(stop - c.p))) break;
            value = v;
            c.p = stop;
            return Status::Ok;
        case PrefixStatus::NeedMore:
            return Status::NeedMore;
        case PrefixStatus::Other:
            break;
    }
    return std::nullopt;
}

enum class Field { Ph, Name, Cat, Ts, Dur, Pid, Tid, Args, Id, Id2, S, Bp, Other };

// The key's field, by its length first: most keys are told apart by one
// length test and one short compare instead of a chain of twelve.
Field fieldOf(std::string_view key) {
    switch (key.size()) {
        case 1:
            return key[0] == 's' ? Field::S : Field::Other;
        case 2:
            if (key == "ph") return Field::Ph;
            if (key == "ts") return Field::Ts;
            if (key == "id") return Field::Id;
            if (key == "bp") return Field::Bp;
            return Field::Other;
        case 3:
            if (key == "pid") return Field::Pid;
            if (key == "tid") return Field::Tid;
            if (key == "dur") return Field::Dur;
            if (key == "cat") return Field::Cat;
            if (key == "id2") return Field::Id2;
            return Field::Other;
        case 4:
            if (key == "name") return Field::Name;
            if (key == "args") return Field::Args;
            return Field::Other;
        default:
            return Field::Other;
    }
}

}  // namespace

Status EventParser::readString(Cursor& c, std::string& scratch, std::string_view& out, RawEvent& ev,
                               const char* field) {
    if (*c.p == '"') return json::scanString(c, scratch, out);
    // Names that are numbers (seen in the wild) are kept as their text.
    const char* start = c.p;
    const Status s = json::skipValue(c);
    if (s != Status::Ok) return s;
    if (*start == '-' || (*start >= '0' && *start <= '9')) {
        out = std::string_view(start, static_cast<size_t>(c.p - start));
    } else if (!ev.badField) {
        ev.badField = field;
    }
    return Status::Ok;
}

Status EventParser::readTime(Cursor& c, RawTime& out, RawEvent& ev, const char* field) {
    out.present = true;
    std::string_view text;
    Status s;
    if (json::startsNonFinite(c)) {  // NaN or Infinity: present, but no time
        out.valid = false;
        return json::skipNonFinite(c);
    }
    if (*c.p == '"') {
        s = json::scanString(c, miscScratch_, text);
    } else if (*c.p == '-' || (*c.p >= '0' && *c.p <= '9')) {
        // "1699999999132.782": read while it is found; anything else the
        // general way.
        if (const std::optional<Status> simple = readSimpleNumber(c, 3, false, out.ns)) {
            out.valid = *simple == Status::Ok;
            return *simple;
        }
        s = json::scanNumber(c, text);
    } else {
        s = json::skipValue(c);
        if (s == Status::Ok && !ev.badField) ev.badField = field;
        out.valid = false;
        return s;
    }
    if (s == Status::Ok) setTime(out, text);
    return s;
}

Status EventParser::readId(Cursor& c, std::string& scratch, RawId& out, RawEvent& ev,
                           const char* field) {
    if (*c.p == '"') {
        out.kind = RawId::Kind::Text;
        return json::scanString(c, scratch, out.text);
    }
    if (!json::startsNonFinite(c) && (*c.p == '-' || (*c.p >= '0' && *c.p <= '9'))) {
        // An integer of up to 18 digits read while it is found ("1.5" and
        // "1e99" are read below, and keep their text).
        if (const std::optional<Status> simple = readSimpleNumber(c, 0, true, out.number)) {
            if (*simple == Status::Ok) out.kind = RawId::Kind::Number;
            return *simple;
        }
        std::string_view text;
        const Status s = json::scanNumber(c, text);
        if (s != Status::Ok) return s;
        const DecimalResult r = parseInteger(text);
        if (isIntegerText(text) && r.status == DecimalStatus::Ok) {
            out.kind = RawId::Kind::Number;
            out.number = r.value;
        } else {
            out.kind = RawId::Kind::Text;  // 1.5 or 1e99: keep the text as the key
            out.text = text;
        }
        return Status::Ok;
    }
    const Status s = json::skipValue(c);
    if (s == Status::Ok) {
        out.kind = RawId::Kind::Invalid;
        if (!ev.badField) ev.badField = field;
    }
    return s;
}

Status EventParser::readId2(Cursor& c, RawEvent& ev) {
    if (*c.p != '{') {
        const Status s = json::skipValue(c);
        if (s == Status::Ok && !ev.badField) ev.badField = "id2";
        return s;
    }
    ++c.p;
    for (;;) {
        std::string_view key;
        bool closed = false;
        Status s = json::readMemberKey(c, keyScratch_, key, closed, "a key string in \"id2\"");
        if (s != Status::Ok || closed) return s;
        if (key == "local" || key == "global") {
            ev.id2Local = key == "local";
            s = readId(c, id2Scratch_, ev.id2, ev, "id2");
        } else {
            s = json::skipValue(c);
        }
        if (s != Status::Ok) return s;
    }
}

Status EventParser::parse(Cursor& c, uint64_t baseOffset, RawEvent& ev) {
    const char* objectStart = c.p;
    ev.offset = baseOffset;
    ++c.p;  // '{'
    // Args are extracted as they are read, where ph is known by then (it
    // comes first in every profiler's output). A ph or args key after
    // them means extracting again from the final text at the end.
    bool extracted = false, extractAgain = false;
    for (;;) {
        std::string_view key;
        bool closed = false;
        Status s = json::readMemberKey(c, keyScratch_, key, closed,
                                       "a key string or '}' in the event object");
        if (s != Status::Ok) return s;
        if (closed) break;

        switch (fieldOf(key)) {
            case Field::Ph:
                extractAgain |= extracted;
                s = readString(c, phScratch_, ev.phText, ev, "ph");
                ev.phase = phaseOf(ev.phText);
                break;
            case Field::Name:
                s = readString(c, nameScratch_, ev.name, ev, "name");
                break;
            case Field::Cat:
                s = readString(c, catScratch_, ev.cat, ev, "cat");
                break;
            case Field::Ts:
                s = readTime(c, ev.ts, ev, "ts");
                break;
            case Field::Dur:
                s = readTime(c, ev.dur, ev, "dur");
                break;
            case Field::Pid:
                s = readId(c, pidScratch_, ev.pid, ev, "pid");
                break;
            case Field::Tid:
                s = readId(c, tidScratch_, ev.tid, ev, "tid");
                break;
            case Field::Args: {
                const char* start = c.p;
                extractAgain |= extracted;
                if (*start == '{' && ev.phase != Phase::Missing && !extracted) {
                    s = extractArgsInPlace(c, ev, argsKeyScratch_, argsValueScratch_);
                    if (s == Status::NeedMore) break;
                    extracted = true;
                    // Error: what was read is extracted; it is skipped as a value.
                    if (s == Status::Error) c.p = start;
                }
                if (c.p == start) s = json::skipValue(c);
                if (s == Status::Ok) {
                    if (*start == '{') {
                        ev.args = std::string_view(start, static_cast<size_t>(c.p - start));
                        ev.argsOffset = baseOffset + static_cast<uint64_t>(start - objectStart);
                        ev.argsInInput = true;
                    } else if (!ev.badField) {
                        ev.badField = "args";
                    }
                }
                break;
            }
            case Field::Id:
                s = readId(c, idScratch_, ev.id, ev, "id");
                break;
            case Field::Id2:
                s = readId2(c, ev);
                break;
            case Field::S: {
                std::string_view v;
                s = readString(c, miscScratch_, v, ev, "s");
                if (s == Status::Ok && v.size() == 1) ev.scope = v[0];
                break;
            }
            case Field::Bp: {
                std::string_view v;
                s = readString(c, miscScratch_, v, ev, "bp");
                if (s == Status::Ok) ev.bindEnclosing = v == "e";
                break;
            }
            case Field::Other:
                s = json::skipValue(c);
                break;
        }
        if (s != Status::Ok) return s;
    }
    if (extractAgain) clearExtractedArgs(ev);
    if (!extracted || extractAgain) extractArgs(ev);
    return Status::Ok;
}

}  // namespace gapscope
