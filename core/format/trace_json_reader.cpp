#include "format/trace_json_reader.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "util/load_error.h"

namespace gapscope {

namespace {
constexpr size_t kInitialBuffer = 4u << 20;

std::string describeByte(char ch) {
    const auto u = static_cast<unsigned char>(ch);
    if (u >= 0x20 && u < 0x7f) return std::string("'") + ch + "'";
    char hex[40];
    std::snprintf(hex, sizeof hex, "byte 0x%02x (binary data, not JSON)", u);
    return hex;
}
}  // namespace

TraceJsonReader::TraceJsonReader(ByteSource& source, EventSink& sink, ImportReport& report,
                                 ReaderOptions options)
    : source_(source), sink_(sink), report_(report), options_(std::move(options)) {
    // Tests ask for tiny buffers to put split points everywhere.
    const size_t initial = std::clamp<size_t>(options_.initialBufferBytes, 1, kInitialBuffer);
    buf_ = options_.exchange ? options_.exchange->acquire(initial) : RawBuffer(initial);
    if (options_.jumps) jumpCheck_ = options_.jumps->nextCheck();
}

void TraceJsonReader::seekTo(uint64_t offset) {
    if (offset <= base_ + end_) {
        pos_ = static_cast<size_t>(offset - base_);
        return;
    }
    const uint64_t gap = offset - (base_ + end_);
    const uint64_t skipped = source_.skip(gap);
    result_.bytesRead += skipped;
    base_ += end_ + skipped;
    pos_ = end_ = 0;
    if (options_.progress)
        options_.progress(LoadPhase::Reading, source_.filePosition(), options_.fileSize);
}

void TraceJsonReader::failTooLarge(size_t pos) const {
    fail(pos, "one event or value is larger than the limit of " +
                  std::to_string(options_.maxEventBytes >> 20) +
                  " MiB (raise it with gapscope-cli --max-event-mb, or Settings → Loading Limits "
                  "in the viewer)");
}

void TraceJsonReader::fail(size_t pos, const std::string& what) const {
    throw LoadError(byteWhere(offsetOf(pos), options_.decompressed), what);
}

bool TraceJsonReader::refill(size_t keepFrom) {
    if (eof_) return false;
    if (options_.cancel && options_.cancel->isCancelled()) throw LoadCancelled();
    // Keep [keepFrom, end) at the front; grow only if one unit fills the buffer.
    const size_t kept = end_ - keepFrom;
    if (options_.exchange && (keepFrom > 0 || end_ == buf_.size())) {
        // Events parsed so far keep pointing into the old buffer.
        if (kept > options_.maxEventBytes) failTooLarge(keepFrom);
        RawBuffer next =
            options_.exchange->acquire(kept == buf_.size() ? buf_.size() * 2 : buf_.size());
        std::memcpy(next.data(), buf_.data() + keepFrom, kept);
        options_.exchange->retire(std::move(buf_));
        buf_ = std::move(next);
        base_ += keepFrom;
        pos_ -= keepFrom;
        end_ = kept;
    } else if (keepFrom > 0) {
        std::memmove(buf_.data(), buf_.data() + keepFrom, kept);
        base_ += keepFrom;
        pos_ -= keepFrom;
        end_ = kept;
    }
    // The unit being read (an event, a key, a metadata value) starts at the
    // front now; past the limit it is legitimate maybe, but too big.
    if (kept > options_.maxEventBytes) failTooLarge(0);
    if (end_ == buf_.size()) buf_.grow(buf_.size() * 2, end_);  // (not with an exchange: above)

    // Fill the whole free space: a unit restarts only at a buffer boundary,
    // so reading costs O(n) however small the source's reads are.
    size_t n = 0;
    while (end_ + n < buf_.size()) {
        const size_t got = source_.read(buf_.data() + end_ + n, buf_.size() - end_ - n);
        if (got == 0) break;
        n += got;
    }
    if (n == 0) {
        eof_ = true;
        if (source_.problem()) {
            report_.warn(offsetOf(end_), *source_.problem());
            report_.truncated = true;
        }
        return false;
    }
    end_ += n;
    result_.bytesRead += n;
    if (options_.progress)
        options_.progress(LoadPhase::Reading, source_.filePosition(), options_.fileSize);
    return true;
}

int TraceJsonReader::peekNonWs() {
    for (;;) {
        while (pos_ < end_ && json::isWs(buf_[pos_]))
            ++pos_;
        if (pos_ < end_) return static_cast<unsigned char>(buf_[pos_]);
        if (!refill(pos_)) return -1;
    }
}

void TraceJsonReader::stopEarly(size_t pos, const std::string& why) {
    report_.truncated = true;
    if (!eof_) stoppedBeforeEnd_ = offsetOf(pos);
    report_.warn(offsetOf(pos),
                 why + "; kept the " + std::to_string(report_.events) + " events before it");
    stopped_ = true;
}

std::string TraceJsonReader::describeStart() const {
    // Say what the file looks like when it is not JSON at all.
    if (end_ >= 262 && std::memcmp(buf_.data() + 257, "ustar", 5) == 0) {
        return "this is a tar archive, not a trace: extract the trace file first";
    }
    if (end_ > pos_) {
        return "expected '[' or '{' at the start of a Chrome trace (JSON), found " +
               describeByte(buf_[pos_]);
    }
    return "the file holds no JSON (only whitespace)";
}

ReaderResult TraceJsonReader::run() {
    refill(0);
    // A UTF-8 byte order mark is tolerated.
    if (end_ >= 3 && std::memcmp(buf_.data(), "\xEF\xBB\xBF", 3) == 0) pos_ = 3;
    const int first = peekNonWs();
    if (first == '[') {
        ++pos_;
        result_.sawTraceEvents = true;
        readEventsArray();
    } else if (first == '{') {
        ++pos_;
        result_.objectForm = true;
        readTopObject();
        if (!result_.sawTraceEvents && !stopped_) {
            throw LoadError(
                "top-level object",
                "not a Chrome trace: no \"traceEvents\" array (keys: " + topKeys_ + ")");
        }
    } else {
        if (first < 0 && source_.problem()) fail(0, *source_.problem());
        if (first < 0 && result_.bytesRead == 0) {
            fail(0,
                 options_.decompressed ? "the compressed file holds no data" : "the file is empty");
        }
        fail(pos_, describeStart());
    }
    if (!stopped_ && !report_.truncated) {
        const int trailing = peekNonWs();
        if (trailing >= 0) {
            report_.warn(offsetOf(pos_), "ignored data after the end of the JSON document");
            stoppedBeforeEnd_ = offsetOf(pos_);
        }
    }
    if (stoppedBeforeEnd_ != UINT64_MAX) result_.bytesRead = stoppedBeforeEnd_;
    if (options_.exchange) options_.exchange->retire(std::move(buf_));
    return result_;
}

bool TraceJsonReader::readKey(std::string& key) {
    std::string scratch;
    for (;;) {
        json::Cursor c{buf_.data() + pos_, buf_.data() + end_};
        std::string_view view;
        const json::Status s = json::scanString(c, scratch, view);
        if (s == json::Status::Ok) {
            key.assign(view);
            pos_ = static_cast<size_t>(c.p - buf_.data());
            return true;
        }
        if (s == json::Status::Error) fail(static_cast<size_t>(c.p - buf_.data()), c.error);
        if (!refill(pos_)) return false;
    }
}

void TraceJsonReader::readMetadataValue(const std::string& key) {
    for (;;) {
        json::Cursor c{buf_.data() + pos_, buf_.data() + end_};
        const json::Status s = json::skipValue(c);
        if (s == json::Status::Ok) {
            const size_t stop = static_cast<size_t>(c.p - buf_.data());
            sink_.onMetadata(key, std::string_view(buf_.data() + pos_, stop - pos_));
            pos_ = stop;
            return;
        }
        if (s == json::Status::Error) {
            stopEarly(
                static_cast<size_t>(c.p - buf_.data()),
                std::string("malformed JSON in top-level \"") + key + "\": expected " + c.error);
            return;
        }
        if (!refill(pos_)) {
            stopEarly(pos_, "the file ends inside top-level \"" + key + "\"");
            return;
        }
    }
}

void TraceJsonReader::readTopObject() {
    std::string key;
    for (;;) {
        const int ch = peekNonWs();
        if (ch < 0) {
            if (!stopped_) stopEarly(pos_, "the file ends inside the top-level object (truncated)");
            return;
        }
        if (ch == '}') {
            ++pos_;
            return;
        }
        if (ch == ',') {
            ++pos_;
            continue;
        }
        if (ch != '"') {
            if (result_.sawTraceEvents) {
                stopEarly(pos_, "malformed JSON: expected a key string or '}', found " +
                                    describeByte(buf_[pos_]));
                return;
            }
            fail(pos_, "expected a key string or '}' in the top-level object, found " +
                           describeByte(buf_[pos_]));
        }
        if (!readKey(key)) {
            stopEarly(pos_, "the file ends inside a top-level key");
            return;
        }
        const int colon = peekNonWs();
        if (colon != ':') {
            if (colon < 0) {
                stopEarly(pos_, "the file ends after top-level key \"" + key + "\"");
                return;
            }
            fail(pos_, "expected ':' after top-level key \"" + key + "\"");
        }
        ++pos_;
        const int value = peekNonWs();
        if (value < 0) {
            stopEarly(pos_, "the file ends after top-level key \"" + key + "\"");
            return;
        }
        if (topKeys_.size() < 120) topKeys_ += (topKeys_.empty() ? "" : ", ") + key;
        if (key == "traceEvents") {
            if (value != '[')
                fail(pos_, "\"traceEvents\" must be an array, found " + describeByte(buf_[pos_]));
            ++pos_;
            result_.sawTraceEvents = true;
            if (readEventsArray() != Unit::Done) return;
        } else {
            readMetadataValue(key);
            if (stopped_) return;
        }
    }
}

TraceJsonReader::Unit TraceJsonReader::readEventsArray() {
    for (;;) {
        const int ch = peekNonWs();
        if (ch < 0) {
            stopEarly(pos_, "the file ends inside \"traceEvents\" (truncated trace)");
            return Unit::Eof;
        }
        if (ch == ']') {
            ++pos_;
            return Unit::Done;
        }
        if (ch == ',') {
            ++pos_;
            continue;
        }
        if (ch != '{') {
            const std::string what =
                "expected an event object '{' or ']' in \"traceEvents\", found " +
                describeByte(buf_[pos_]);
            if (report_.events == 0) fail(pos_, "not a Chrome trace: " + what);
            stopEarly(pos_, "malformed JSON: " + what);
            return Unit::Stop;
        }
        if (offsetOf(pos_) >= jumpCheck_) {
            const uint64_t at = offsetOf(pos_);
            const uint64_t resume = options_.jumps->jump(at, sink_, report_.events);
            jumpCheck_ = options_.jumps->nextCheck();
            if (resume != at) {
                seekTo(resume);
                continue;
            }
        }
        for (;;) {
            json::Cursor c{buf_.data() + pos_, buf_.data() + end_};
            event_.reset();
            event_.index = report_.events;
            const json::Status s = parser_.parse(c, offsetOf(pos_), event_);
            if (s == json::Status::Ok) {
                const size_t end = static_cast<size_t>(c.p - buf_.data());
                if (end - pos_ > options_.maxEventBytes) failTooLarge(pos_);
                pos_ = end;
                ++report_.events;
                sink_.onEvent(event_);
                break;
            }
            if (s == json::Status::Error) {
                const size_t at = static_cast<size_t>(c.p - buf_.data());
                const std::string what = std::string("malformed JSON in event ") +
                                         std::to_string(report_.events) + ": expected " + c.error +
                                         ", found " + describeByte(*c.p);
                if (report_.events == 0) fail(at, what);
                stopEarly(at, what);
                return Unit::Stop;
            }
            if (!refill(pos_)) {
                stopEarly(pos_, "the file ends inside event " + std::to_string(report_.events) +
                                    " (truncated trace)");
                return Unit::Eof;
            }
        }
    }
}

}  // namespace gapscope
