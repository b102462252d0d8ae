#include "support/xspace_writer.h"

#include <cstring>

namespace gapscope::test {

std::string protoVarint(uint64_t v) {
    std::string out;
    do {
        unsigned char b = v & 0x7F;
        v >>= 7;
        if (v) b |= 0x80;
        out += static_cast<char>(b);
    } while (v);
    return out;
}

std::string protoField(uint32_t number, uint64_t varint) {
    return protoVarint(uint64_t{number} << 3) + protoVarint(varint);
}

std::string protoBytes(uint32_t number, const std::string& payload) {
    return protoVarint((uint64_t{number} << 3) | 2) + protoVarint(payload.size()) + payload;
}

namespace {

// proto3 leaves zero scalars out; so does this.
void scalar(std::string& out, uint32_t number, int64_t v) {
    if (v != 0) out += protoField(number, static_cast<uint64_t>(v));
}

void text(std::string& out, uint32_t number, const std::string& v) {
    if (!v.empty()) out += protoBytes(number, v);
}

std::string stat(const XsStat& s) {
    std::string out;
    scalar(out, 1, s.metadataId);
    switch (s.kind) {
        case XsStat::Kind::Double: {
            uint64_t bits;
            std::memcpy(&bits, &s.d, sizeof bits);
            out += protoVarint((2u << 3) | 1);
            for (int k = 0; k < 8; ++k)
                out += static_cast<char>((bits >> (8 * k)) & 0xFF);
            break;
        }
        case XsStat::Kind::Uint64:
            out += protoField(3, s.u);
            break;
        case XsStat::Kind::Int64:
            out += protoField(4, static_cast<uint64_t>(s.i));
            break;
        case XsStat::Kind::Str:
            out += protoBytes(5, s.s);
            break;
        case XsStat::Kind::Bytes:
            out += protoBytes(6, s.s);
            break;
        case XsStat::Kind::Ref:
            out += protoField(7, s.u);
            break;
    }
    return out;
}

std::string event(const XsEvent& e) {
    std::string out;
    scalar(out, 1, e.metadataId);
    if (e.numOccurrences) {
        out += protoField(5, static_cast<uint64_t>(*e.numOccurrences));
    } else {
        scalar(out, 2, e.offsetPs);
    }
    scalar(out, 3, e.durationPs);
    for (const XsStat& s : e.stats)
        out += protoBytes(4, stat(s));
    return out;
}

std::string line(const XsLine& l) {
    std::string out;
    scalar(out, 1, l.id);
    text(out, 2, l.name);
    scalar(out, 3, l.timestampNs);
    for (const XsEvent& e : l.events)
        out += protoBytes(4, event(e));
    scalar(out, 10, l.displayId);
    text(out, 11, l.displayName);
    return out;
}

std::string plane(const XsPlane& p) {
    std::string out;
    scalar(out, 1, p.id);
    text(out, 2, p.name);
    for (const XsLine& l : p.lines)
        out += protoBytes(3, line(l));
    for (const XsEventMetadata& m : p.eventMetadata) {
        std::string value;
        scalar(value, 1, m.id);
        text(value, 2, m.name);
        text(value, 4, m.displayName);
        for (const XsStat& s : m.stats)
            value += protoBytes(5, stat(s));
        out += protoBytes(4, protoField(1, static_cast<uint64_t>(m.id)) + protoBytes(2, value));
    }
    for (const auto& [id, name] : p.statMetadata) {
        std::string value;
        scalar(value, 1, id);
        text(value, 2, name);
        out += protoBytes(5, protoField(1, static_cast<uint64_t>(id)) + protoBytes(2, value));
    }
    for (const XsStat& s : p.stats)
        out += protoBytes(6, stat(s));
    return out;
}

}  // namespace

std::string encodeXSpace(const XsSpace& space) {
    std::string out;
    for (const XsPlane& p : space.planes)
        out += protoBytes(1, plane(p));
    for (const std::string& e : space.errors)
        out += protoBytes(2, e);
    for (const std::string& w : space.warnings)
        out += protoBytes(3, w);
    for (const std::string& h : space.hostnames)
        out += protoBytes(4, h);
    return out;
}

}  // namespace gapscope::test
