#pragma once
// Parses one trace event object from a byte range into a RawEvent, in a
// single pass over its keys. Returns NeedMore when the range ends inside the
// event; the caller refills and calls again from the event's start.

#include <string>

#include "format/json_lexer.h"
#include "format/raw_event.h"

namespace gapscope {

class EventParser {
  public:
    // c.p at '{'. `baseOffset` is the stream offset of c.p.
    json::Status parse(json::Cursor& c, uint64_t baseOffset, RawEvent& ev);

  private:
    json::Status readString(json::Cursor& c, std::string& scratch, std::string_view& out,
                            RawEvent& ev, const char* field);
    json::Status readTime(json::Cursor& c, RawTime& out, RawEvent& ev, const char* field);
    json::Status readId(json::Cursor& c, std::string& scratch, RawId& out, RawEvent& ev,
                        const char* field);
    json::Status readId2(json::Cursor& c, RawEvent& ev);

    std::string keyScratch_, phScratch_, nameScratch_, catScratch_, pidScratch_, tidScratch_,
        idScratch_, id2Scratch_, miscScratch_, argsKeyScratch_, argsValueScratch_;
};

// Fills the ExtractedArgs / metadata / counter fields of `ev` from ev.args,
// according to ev.phase: each member as json::forEachMember reads it, up to
// the end or the first member it cannot read.
void extractArgs(RawEvent& ev);

// The same, while reading: c.p at the '{' of the args object, ev.phase as it
// will stay. Ok: extracted, and c.p after the object. Error: the object is
// not one that forEachMember reads through (the members before that point
// are extracted, as extractArgs would; the caller skips the value as
// before, from where it started). NeedMore: the bytes end first.
json::Status extractArgsInPlace(json::Cursor& c, RawEvent& ev, std::string& keyScratch,
                                std::string& valueScratch);

// Back to none of the fields extractArgs fills.
void clearExtractedArgs(RawEvent& ev);

}  // namespace gapscope
