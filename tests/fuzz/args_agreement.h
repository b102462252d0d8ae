#pragma once
// Whether the args extracted while an event is read (EventParser, in one
// pass) are those extractArgs gives from the event's args text afterwards
// (the two passes every reader made before), and whether the event cut
// anywhere before its end asks for more bytes rather than giving something
// else. Shared by tst_args_in_place and the fuzz_args target; no Qt.

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "format/event_parser.h"

namespace gapscope::test {

// Every field extractArgs fills, by value.
struct ExtractedFields {
    ExtractedArgs known;
    bool hasKnown = false;
    std::string metaName, metaLabels;
    bool hasMetaName = false, hasMetaLabels = false, hasSortIndex = false;
    int64_t sortIndex = 0;
    int64_t memTotalAllocated = 0, memTotalReserved = 0, memBytes = 0;
    int32_t memDeviceType = 0, memDeviceId = 0;
    std::vector<std::pair<std::string, double>> counters;

    explicit ExtractedFields(const RawEvent& ev)
        : known(ev.known),
          hasKnown(ev.hasKnown),
          metaName(ev.hasMetaName ? ev.metaName : std::string_view()),
          metaLabels(ev.hasMetaLabels ? ev.metaLabels : std::string_view()),
          hasMetaName(ev.hasMetaName),
          hasMetaLabels(ev.hasMetaLabels),
          hasSortIndex(ev.hasSortIndex),
          sortIndex(ev.hasSortIndex ? ev.sortIndex : 0),
          memTotalAllocated(ev.memTotalAllocated),
          memTotalReserved(ev.memTotalReserved),
          memBytes(ev.memBytes),
          memDeviceType(ev.memDeviceType),
          memDeviceId(ev.memDeviceId) {
        for (const CounterValue& v : ev.counterValues)
            counters.emplace_back(std::string(v.key), v.value);
    }

    bool operator==(const ExtractedFields& o) const {
        const ExtractedArgs &a = known, &b = o.known;
        const bool sameKnown =
            a.correlation == b.correlation && a.externalId == b.externalId &&
            a.device == b.device && a.stream == b.stream && a.grid[0] == b.grid[0] &&
            a.grid[1] == b.grid[1] && a.grid[2] == b.grid[2] && a.block[0] == b.block[0] &&
            a.block[1] == b.block[1] && a.block[2] == b.block[2] &&
            a.registersPerThread == b.registersPerThread && a.sharedMemory == b.sharedMemory &&
            a.occupancyPercent == b.occupancyPercent && a.bytes == b.bytes;
        return sameKnown && hasKnown == o.hasKnown && metaName == o.metaName &&
               metaLabels == o.metaLabels && hasMetaName == o.hasMetaName &&
               hasMetaLabels == o.hasMetaLabels && hasSortIndex == o.hasSortIndex &&
               sortIndex == o.sortIndex && memTotalAllocated == o.memTotalAllocated &&
               memTotalReserved == o.memTotalReserved && memBytes == o.memBytes &&
               memDeviceType == o.memDeviceType && memDeviceId == o.memDeviceId &&
               counters == o.counters;
    }

    std::string describe() const {
        char line[512];
        std::snprintf(
            line, sizeof line,
            "known=%d corr=%lld ext=%lld dev=%d stream=%d grid=%d,%d,%d block=%d,%d,%d "
            "regs=%d smem=%lld occ=%g bytes=%lld meta=%d'%s' labels=%d'%s' sort=%d:%lld "
            "mem=%lld/%lld/%lld type=%d id=%d counters=%zu",
            hasKnown, static_cast<long long>(known.correlation),
            static_cast<long long>(known.externalId), known.device, known.stream, known.grid[0],
            known.grid[1], known.grid[2], known.block[0], known.block[1], known.block[2],
            known.registersPerThread, static_cast<long long>(known.sharedMemory),
            static_cast<double>(known.occupancyPercent), static_cast<long long>(known.bytes),
            hasMetaName, metaName.c_str(), hasMetaLabels, metaLabels.c_str(), hasSortIndex,
            static_cast<long long>(sortIndex), static_cast<long long>(memTotalAllocated),
            static_cast<long long>(memTotalReserved), static_cast<long long>(memBytes),
            memDeviceType, memDeviceId, counters.size());
        std::string out = line;
        for (const auto& [key, value] : counters)
            out += " [" + key + "=" + std::to_string(value) + "]";
        return out;
    }
};

struct ArgsCheck {
    json::Status status = json::Status::NeedMore;  // of the whole text
    std::string problem;                           // "" when both ways agree
};

// `text` starts with one event object ('{'); whatever follows it is not read.
inline ArgsCheck checkArgsAgreement(const std::string& text) {
    ArgsCheck result;
    EventParser parser;
    RawEvent ev;
    json::Cursor c{text.data(), text.data() + text.size()};
    result.status = parser.parse(c, 0, ev);
    if (result.status != json::Status::Ok) return result;
    const size_t end = static_cast<size_t>(c.p - text.data());
    const ExtractedFields inPlace(ev);
    RawEvent again = ev;  // its views are of `text` (or of the parser, untouched till below)
    clearExtractedArgs(again);
    extractArgs(again);
    const ExtractedFields fromText(again);
    if (!(inPlace == fromText)) {
        result.problem =
            "while reading: " + inPlace.describe() + "\nfrom the text: " + fromText.describe();
        return result;
    }
    for (size_t cut = 1; cut < end; ++cut) {
        RawEvent part;
        json::Cursor pc{text.data(), text.data() + cut};
        const json::Status s = parser.parse(pc, 0, part);
        if (s != json::Status::NeedMore) {
            result.problem = "cut after " + std::to_string(cut) + " of " + std::to_string(end) +
                             " bytes: " + (s == json::Status::Ok ? "Ok" : "Error") +
                             " instead of NeedMore";
            return result;
        }
    }
    return result;
}

}  // namespace gapscope::test
