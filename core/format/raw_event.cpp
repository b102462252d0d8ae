#include "format/raw_event.h"

namespace gapscope {

Phase phaseOf(std::string_view ph) {
    if (ph.empty()) return Phase::Missing;
    switch (ph[0]) {
        case 'X':
            return Phase::Complete;
        case 'B':
            return Phase::Begin;
        case 'E':
            return Phase::End;
        case 'i':
        case 'I':
            return Phase::Instant;
        case 'n':
            return Phase::ProcessInstant;
        case 'C':
            return Phase::Counter;
        case 'M':
            return Phase::Metadata;
        case 's':
            return Phase::FlowStart;
        case 't':
            return Phase::FlowStep;
        case 'f':
            return Phase::FlowEnd;
        case 'b':
            return Phase::AsyncBegin;
        case 'e':
            return Phase::AsyncEnd;
        case 'S':
            return Phase::AsyncStart;
        case 'T':
            return Phase::AsyncStep;
        case 'F':
            return Phase::AsyncFinish;
        case 'P':
        case 'O':
        case 'N':
        case 'D':
        case 'V':
        case 'v':
        case 'R':
        case 'c':
        case '(':
        case ')':
        case 'p':
            return Phase::Unmodelled;
        default:
            return Phase::Unknown;
    }
}

char phaseLetter(Phase phase) {
    static constexpr char kLetters[] = "?XBEinCMstfbeSTF??";
    const auto i = static_cast<size_t>(phase);
    return i < sizeof kLetters - 1 ? kLetters[i] : '?';
}

}  // namespace gapscope
