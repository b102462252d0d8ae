#!/usr/bin/env python3
"""Independent reference decoder for XSpace (*.xplane.pb) files.

Purpose: an independent reference for Gapscope's C++ XSpace reader tests. It is
written only from the field numbers of tsl/profiler/protobuf/xplane.proto
(package tensorflow.profiler), uses the Python standard library only (no
`protobuf` package) and shares no code with the C++ reader.

Usage: xplane_reference.py FILE.xplane.pb      (gzip input is detected by magic)
Output: JSON on stdout, one record per plane (see summarize()).
Exit status: 0 ok; 1 usage or I/O error; 2 truncated or malformed input, with a
message on stderr naming the byte offset (offsets count bytes of the
decompressed protobuf when the input was gzip).

Wire schema used (field number: name, wire type V=varint L=length-delimited
D=64-bit fixed):
  XSpace         1 planes L(XPlane) rep, 2 errors L, 3 warnings L, 4 hostnames L
  XPlane         1 id V, 2 name L, 3 lines L(XLine) rep,
                 4 event_metadata L(map entry: 1 key V, 2 value L XEventMetadata)
                 5 stat_metadata  L(map entry: 1 key V, 2 value L XStatMetadata)
                 6 stats L(XStat) rep
  XLine          1 id V, 2 name L, 3 timestamp_ns V, 4 events L(XEvent) rep,
                 9 duration_ps V, 10 display_id V, 11 display_name L
  XEvent         1 metadata_id V, oneof{2 offset_ps V | 5 num_occurrences V},
                 3 duration_ps V, 4 stats L(XStat) rep
  XStat          1 metadata_id V, oneof{2 double_value D | 3 uint64_value V |
                 4 int64_value V | 5 str_value L | 6 bytes_value L |
                 7 ref_value V}
  XEventMetadata 1 id V, 2 name L, 3 metadata L, 4 display_name L,
                 5 stats L(XStat) rep, 6 child_id V rep (packed L accepted)
  XStatMetadata  1 id V, 2 name L, 3 description L

Rules:
  * Protobuf semantics: last value wins for singular fields and inside a oneof;
    a later map entry with the same key replaces the earlier one (a value
    repeated inside one entry: last wins, where protobuf would merge); unknown
    fields (any valid wire type, groups included) are skipped.
  * A known field with the wrong wire type is malformed. An empty input is a
    valid empty XSpace (protobuf has no header); gzip may have several members.
  * Event start (ps) = line.timestamp_ns * 1000 + event.offset_ps, end = start +
    duration_ps. Events whose oneof holds num_occurrences (aggregated events)
    count in num_events and sum_duration_ps but not in min_start_ps/max_end_ps.
  * distinct_event_names counts the distinct XEventMetadata.name values that a
    line's events resolve to through the plane's event_metadata map; an id with
    no entry resolves to "" and is also counted in unresolved_metadata_events.
  * num_stats = stats on events + stats on the plane (XPlane.stats); stats
    inside XEventMetadata are reported separately as event_metadata_stats.
"""

import gzip
import json
import sys
import zlib

VARINT, I64, LEN, SGROUP, EGROUP, I32 = 0, 1, 2, 3, 4, 5
WIRE_NAMES = {VARINT: "varint", I64: "64-bit", LEN: "length-delimited",
              SGROUP: "start-group", EGROUP: "end-group", I32: "32-bit"}
MASK64 = (1 << 64) - 1


class Malformed(Exception):
    def __init__(self, offset, message, what="XSpace"):
        super().__init__(message)
        self.offset = offset
        self.what = what  # "XSpace", "gzip stream" or "XSpace (decompressed)"


def read_varint(buf, pos, end):
    start, result, shift = pos, 0, 0
    while True:
        if pos >= end:
            raise Malformed(start, "truncated varint")
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result & MASK64, pos
        shift += 7
        if shift >= 70:
            raise Malformed(start, "varint longer than 10 bytes")


def as_int64(value):
    return value - (1 << 64) if value >= 1 << 63 else value


def skip_group(buf, pos, end, field, tag_offset):
    """Skips the body of a group that started with field `field`."""
    while True:
        if pos >= end:
            raise Malformed(tag_offset, f"unterminated group (field {field})")
        tag_off = pos
        key, pos = read_varint(buf, pos, end)
        num, wt = key >> 3, key & 7
        if wt == EGROUP:
            if num != field:
                raise Malformed(tag_off, f"end-group {num} does not match start-group {field}")
            return pos
        pos = skip_value(buf, pos, end, num, wt, tag_off)


def skip_value(buf, pos, end, num, wt, tag_off):
    if wt == VARINT:
        return read_varint(buf, pos, end)[1]
    if wt in (I64, I32):
        size = 8 if wt == I64 else 4
        if pos + size > end:
            raise Malformed(pos, f"truncated {size}-byte fixed value (field {num})")
        return pos + size
    if wt == LEN:
        length, vpos = read_varint(buf, pos, end)
        if vpos + length > end:
            raise Malformed(pos, f"length {length} of field {num} runs past the end of its message at {end}")
        return vpos + length
    if wt == SGROUP:
        return skip_group(buf, pos, end, num, tag_off)
    raise Malformed(tag_off, f"invalid wire type {wt} (field {num})")


def fields(buf, pos, end, message, schema):
    """Yields (field_number, value, tag_offset) for the fields named in schema
    (a dict field_number -> wire type); other fields are skipped. A varint value
    is an unsigned int, a 64-bit value an int of its 8 little-endian bytes, a
    length-delimited value a (start, stop) pair of absolute offsets."""
    while pos < end:
        tag_off = pos
        key, pos = read_varint(buf, pos, end)
        num, wt = key >> 3, key & 7
        if num == 0:
            raise Malformed(tag_off, f"field number 0 in {message}")
        expected = schema.get(num)
        if expected is None:
            pos = skip_value(buf, pos, end, num, wt, tag_off)
            continue
        # A repeated scalar may also arrive packed (length-delimited).
        if wt != expected and not (expected == VARINT and wt == LEN and num in schema.get("packed", ())):
            raise Malformed(tag_off, f"{message} field {num}: wire type {WIRE_NAMES.get(wt, wt)}, "
                                     f"expected {WIRE_NAMES[expected]}")
        if wt == VARINT:
            value, pos = read_varint(buf, pos, end)
        elif wt == I64:
            if pos + 8 > end:
                raise Malformed(pos, f"truncated 64-bit value ({message} field {num})")
            value, pos = int.from_bytes(buf[pos:pos + 8], "little"), pos + 8
        else:  # LEN
            len_off = pos
            length, pos = read_varint(buf, pos, end)
            if pos + length > end:
                raise Malformed(len_off, f"length {length} of {message} field {num} runs past "
                                         f"the end of its enclosing message at {end}")
            value, pos = (pos, pos + length), pos + length
        yield num, value, tag_off
    if pos != end:  # cannot happen: every read is bounded by end
        raise Malformed(pos, f"{message} overran its bounds")


def text(buf, span):
    return bytes(buf[span[0]:span[1]]).decode("utf-8", errors="replace")


def packed_varints(buf, span):
    pos, n = span[0], 0
    while pos < span[1]:
        pos = read_varint(buf, pos, span[1])[1]
        n += 1
    return n


STAT = {1: VARINT, 2: I64, 3: VARINT, 4: VARINT, 5: LEN, 6: LEN, 7: VARINT}
EVENT = {1: VARINT, 2: VARINT, 3: VARINT, 4: LEN, 5: VARINT}
LINE = {1: VARINT, 2: LEN, 3: VARINT, 4: LEN, 9: VARINT, 10: VARINT, 11: LEN}
EVENT_METADATA = {1: VARINT, 2: LEN, 3: LEN, 4: LEN, 5: LEN, 6: VARINT, "packed": (6,)}
STAT_METADATA = {1: VARINT, 2: LEN, 3: LEN}
MAP_ENTRY = {1: VARINT, 2: LEN}
PLANE = {1: VARINT, 2: LEN, 3: LEN, 4: LEN, 5: LEN, 6: LEN}
SPACE = {1: LEN, 2: LEN, 3: LEN, 4: LEN}


def check_stat(buf, span):
    """Validates one XStat; returns (metadata_id, kind, value) of its value:
    kind "int" (int64/uint64), "str", "ref" (a stat metadata id) or None."""
    metadata_id, kind, val = 0, None, None
    for num, value, _ in fields(buf, span[0], span[1], "XStat", STAT):
        if num == 1:
            metadata_id = as_int64(value)
        elif num == 3:
            kind, val = "int", value
        elif num == 4:
            kind, val = "int", as_int64(value)
        elif num == 5:
            kind, val = "str", text(buf, value)
        elif num == 7:
            kind, val = "ref", as_int64(value)
        elif num in (2, 6):
            kind, val = None, None
    return metadata_id, kind, val


def parse_event(buf, span):
    metadata_id, offset_ps, aggregated, duration_ps, nstats = 0, 0, False, 0, 0
    stats = []
    for num, value, _ in fields(buf, span[0], span[1], "XEvent", EVENT):
        if num == 1:
            metadata_id = as_int64(value)
        elif num == 2:
            offset_ps, aggregated = as_int64(value), False
        elif num == 5:
            offset_ps, aggregated = 0, True
        elif num == 3:
            duration_ps = as_int64(value)
        elif num == 4:
            stats.append(check_stat(buf, value))
            nstats += 1
    return metadata_id, offset_ps, aggregated, duration_ps, nstats, stats


def parse_line(buf, span, plane_stats):
    line = {"id": 0, "display_id": 0, "name": "", "display_name": "",
            "timestamp_ns": 0, "duration_ps": 0}
    events = []  # (metadata_id, offset_ps, aggregated, duration_ps)
    for num, value, _ in fields(buf, span[0], span[1], "XLine", LINE):
        if num == 1:
            line["id"] = as_int64(value)
        elif num == 2:
            line["name"] = text(buf, value)
        elif num == 3:
            line["timestamp_ns"] = as_int64(value)
        elif num == 4:
            metadata_id, offset_ps, aggregated, duration_ps, nstats, stats = parse_event(buf, value)
            events.append((metadata_id, offset_ps, aggregated, duration_ps, stats))
            plane_stats["event_stats"] += nstats
        elif num == 9:
            line["duration_ps"] = as_int64(value)
        elif num == 10:
            line["display_id"] = as_int64(value)
        elif num == 11:
            line["display_name"] = text(buf, value)
    # timestamp_ns may follow the events on the wire, so times are taken here.
    base_ps = line["timestamp_ns"] * 1000
    starts = [base_ps + e[1] for e in events if not e[2]]
    ends = [base_ps + e[1] + e[3] for e in events if not e[2]]
    line["num_events"] = len(events)
    line["num_aggregated_events"] = sum(1 for e in events if e[2])
    line["min_start_ps"] = min(starts) if starts else None
    line["max_end_ps"] = max(ends) if ends else None
    line["sum_duration_ps"] = sum(e[3] for e in events)
    return line, {e[0] for e in events}, [(base_ps,) + e for e in events]


def parse_event_metadata(buf, span):
    name, nstats = "", 0
    for num, value, _ in fields(buf, span[0], span[1], "XEventMetadata", EVENT_METADATA):
        if num == 2:
            name = text(buf, value)
        elif num == 4:
            text(buf, value)
        elif num == 5:
            check_stat(buf, value)
            nstats += 1
        elif num == 6 and isinstance(value, tuple):
            packed_varints(buf, value)
    return name, nstats


def parse_stat_metadata(buf, span):
    name = ""
    for num, value, _ in fields(buf, span[0], span[1], "XStatMetadata", STAT_METADATA):
        if num == 2:
            name = text(buf, value)
        elif num == 3:
            text(buf, value)
    return name


def parse_map_entry(buf, span, what, parse_value):
    key, value_span = 0, None
    for num, value, _ in fields(buf, span[0], span[1], what + " map entry", MAP_ENTRY):
        if num == 1:
            key = as_int64(value)
        else:
            value_span = value
    # A missing value is the default (empty) message.
    return key, parse_value(value_span if value_span is not None else (0, 0))


def parse_plane(buf, span):
    plane = {"id": 0, "name": ""}
    counts = {"event_stats": 0, "plane_stats": 0}
    lines = []  # (summary, used metadata ids, events)
    event_metadata, stat_names = {}, {}  # id -> (name, number of stats); id -> name
    for num, value, _ in fields(buf, span[0], span[1], "XPlane", PLANE):
        if num == 1:
            plane["id"] = as_int64(value)
        elif num == 2:
            plane["name"] = text(buf, value)
        elif num == 3:
            lines.append(parse_line(buf, value, counts))
        elif num == 4:
            key, entry = parse_map_entry(buf, value, "event_metadata",
                                         lambda s: parse_event_metadata(buf, s))
            event_metadata[key] = entry
        elif num == 5:
            key, name = parse_map_entry(buf, value, "stat_metadata",
                                        lambda s: parse_stat_metadata(buf, s))
            stat_names[key] = name
        elif num == 6:
            check_stat(buf, value)
            counts["plane_stats"] += 1
    event_names = {key: entry[0] for key, entry in event_metadata.items()}
    out_lines = []
    # Allocators: per allocator_name, the MemoryAllocation / MemoryDeallocation
    # events with a bytes_allocated stat, its peak and its last value in time.
    allocators = {}
    blocks = {}  # allocator -> [(time ps, order, +/-bytes, address)]
    for line, used_ids, events in lines:
        line["distinct_event_names"] = len({event_names.get(e[1], "") for e in events} |
                                           {event_names.get(i, "") for i in used_ids})
        line["unresolved_metadata_events"] = sum(1 for e in events if e[1] not in event_names)
        out_lines.append(line)
        for base_ps, mid, offset_ps, aggregated, duration_ps, stats in events:
            if aggregated or event_names.get(mid) not in ("MemoryAllocation", "MemoryDeallocation"):
                continue
            named = {}
            for sid, kind, val in stats:
                if kind == "ref":
                    kind, val = "str", stat_names.get(val, "")
                named[stat_names.get(sid, "")] = (kind, val)
            if named.get("bytes_allocated", (None,))[0] != "int":
                continue
            # The block (TensorFlow's memory profiler): its address ("addr")
            # and size.
            if named.get("addr", (None,))[0] == "int" and \
                    named.get("allocation_bytes", (None,))[0] == "int":
                size = named["allocation_bytes"][1]
                sign = 1 if event_names.get(mid) == "MemoryAllocation" else -1
                allocator_name = named.get("allocator_name", ("str", ""))[1]
                blocks.setdefault(allocator_name, []).append(
                    (base_ps + offset_ps, len(blocks.get(allocator_name, [])), sign * size,
                     named["addr"][1]))
            allocator = named.get("allocator_name", ("str", ""))[1]
            value = named["bytes_allocated"][1]
            a = allocators.setdefault(allocator, {"points": 0, "peak_bytes": 0,
                                                  "last_ps": None, "last_bytes": None})
            a["points"] += 1
            a["peak_bytes"] = max(a["peak_bytes"], value)
            at = base_ps + offset_ps
            if a["last_ps"] is None or at >= a["last_ps"]:
                a["last_ps"], a["last_bytes"] = at, value
    # Each allocator's blocks paired by address in time order: an allocation
    # lives until the first free of its address.
    for name, events in blocks.items():
        alive, paired, unknown = {}, 0, 0
        for _, _, size, address in sorted(events):
            if size > 0:
                alive[address] = size
            elif size < 0:
                if address in alive:
                    del alive[address]
                    paired += 1
                else:
                    unknown += 1
        allocators[name].update({
            "allocations": sum(1 for e in events if e[2] > 0),
            "frees_paired": paired,
            "unknown_frees": unknown,
            "never_freed": len(alive),
            "never_freed_bytes": sum(alive.values()),
        })
    plane["allocators"] = allocators
    plane["num_lines"] = len(out_lines)
    plane["num_events"] = sum(l["num_events"] for l in out_lines)
    plane["num_event_metadata"] = len(event_names)
    plane["num_stat_metadata"] = len(stat_names)
    plane["num_stats"] = counts["event_stats"] + counts["plane_stats"]
    plane["event_stats"] = counts["event_stats"]
    plane["plane_stats"] = counts["plane_stats"]
    plane["event_metadata_stats"] = sum(entry[1] for entry in event_metadata.values())
    plane["lines"] = out_lines
    return plane


def parse_space(buf):
    space = {"planes": [], "errors": [], "warnings": [], "hostnames": []}
    keys = {2: "errors", 3: "warnings", 4: "hostnames"}
    for num, value, _ in fields(buf, 0, len(buf), "XSpace", SPACE):
        if num == 1:
            space["planes"].append(parse_plane(buf, value))
        else:
            space[keys[num]].append(text(buf, value))
    return space


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    compressed = data[:2] == b"\x1f\x8b"
    if compressed:
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as e:
            raise Malformed(0, str(e), "gzip stream") from None
    return data, compressed


def summarize(path):
    data, compressed = load(path)
    try:
        space = parse_space(memoryview(data))
    except Malformed as e:
        if compressed:
            e.what = "XSpace (offset in the decompressed data)"
        raise
    planes = space.pop("planes")
    return {
        "file": path,
        "gzip": compressed,
        "protobuf_bytes": len(data),
        **space,
        "num_planes": len(planes),
        "num_lines": sum(p["num_lines"] for p in planes),
        "num_events": sum(p["num_events"] for p in planes),
        "planes": planes,
    }


def main(argv):
    if len(argv) != 2:
        print("usage: xplane_reference.py FILE.xplane.pb", file=sys.stderr)
        return 1
    try:
        result = summarize(argv[1])
    except OSError as e:
        print(f"xplane_reference: {argv[1]}: {e}", file=sys.stderr)
        return 1
    except Malformed as e:
        print(f"xplane_reference: {argv[1]}: malformed {e.what} at byte offset {e.offset}: {e}",
              file=sys.stderr)
        return 2
    json.dump(result, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
