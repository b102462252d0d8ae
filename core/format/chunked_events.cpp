#include "format/chunked_events.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

#include "format/event_parser.h"

namespace gapscope {

namespace {

// Text read past a chunk's end so that the events starting just before it
// are whole; an event running further is left to the reader. (Tests' tiny
// chunks read a little, so that every path is taken.)
size_t slackBytes(size_t chunkBytes) {
    return std::clamp<size_t>(chunkBytes / 8, 4 * 1024, 64 * 1024);
}

size_t readAt(int fd, char* dst, size_t bytes, uint64_t offset) {
    size_t got = 0;
    while (got < bytes) {
        const ssize_t n = ::pread(fd, dst + got, bytes - got, static_cast<off_t>(offset + got));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += static_cast<size_t>(n);
    }
    return got;
}

// The first '{' in [from, until) that follows "}" "," with only whitespace
// between: most likely the start of an event (checked later by the reader).
const char* likelyEventStart(const char* begin, const char* from, const char* until,
                             const char* end) {
    for (const char* p = from; p < until;) {
        const auto* comma =
            static_cast<const char*>(std::memchr(p, ',', static_cast<size_t>(until - p)));
        if (!comma) return nullptr;
        p = comma + 1;
        const char* before = comma;
        while (before > begin && json::isWs(before[-1]))
            --before;
        if (before == begin || before[-1] != '}') continue;
        const char* after = comma + 1;
        while (after < end && json::isWs(*after))
            ++after;
        if (after < until && *after == '{') return after;
    }
    return nullptr;
}

}  // namespace

class ChunkedEvents::Parser {
  public:
    EventParser parser;
    RawEvent event;
};

ChunkedEvents::ChunkedEvents(Options options) : options_(std::move(options)) {
    options_.chunkBytes = std::max<size_t>(options_.chunkBytes, 16);
    chunkCount_ =
        static_cast<size_t>((options_.fileSize + options_.chunkBytes - 1) / options_.chunkBytes);
    chunks_.resize(chunkCount_);
    nextCheck_ = chunkCount_ > 1 ? options_.chunkBytes : UINT64_MAX;
    readerParser_ = std::make_unique<Parser>();
    for (int i = 0; i < options_.workers && chunkCount_ > 1; ++i) {
        try {
            workers_.emplace_back([this] { work(); });
        } catch (const std::system_error&) {
            break;  // no thread to be had: the reader parses (and reads ahead) alone
        }
    }
}

ChunkedEvents::~ChunkedEvents() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    for (std::thread& t : workers_)
        t.join();
}

size_t ChunkedEvents::claimLocked() {
    if (stopping_ || (options_.cancel && options_.cancel->isCancelled())) return 0;
    const size_t last = std::min(chunkCount_, current_ + 1 + kLookahead);
    for (size_t k = current_ + 1; k < last; ++k) {
        if (chunks_[k].state == State::Unclaimed) {
            chunks_[k].state = State::Parsing;
            return k;
        }
    }
    return 0;
}

void ChunkedEvents::work() {
    Parser parser;
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        if (const size_t k = claimLocked()) {
            lock.unlock();
            parse(k, parser);
            lock.lock();
        } else {
            changed_.wait(lock);
        }
    }
}

void ChunkedEvents::parse(size_t index, Parser& parser) {
    std::unique_ptr<EventBatch> batch;
    {
        std::lock_guard lock(mutex_);
        if (!spare_.empty()) {
            batch = std::move(spare_.back());
            spare_.pop_back();
        }
    }
    uint64_t start = kNoStart, resume = 0;
    try {
        if (!batch) batch = std::make_unique<EventBatch>();
        batch->clear();
        const uint64_t from = index * uint64_t{options_.chunkBytes};
        const uint64_t limit = from + options_.chunkBytes;  // the next chunk's nominal start
        const auto length = static_cast<size_t>(
            std::min<uint64_t>(options_.fileSize, limit + slackBytes(options_.chunkBytes)) - from);
        if (batch->buffer.size() < length) batch->buffer = RawBuffer(length);
        const char* data = batch->buffer.data();
        const char* end = data + readAt(options_.fd, batch->buffer.data(), length, from);
        const char* first = likelyEventStart(
            data, data, data + std::min<size_t>(options_.chunkBytes, end - data), end);
        if (first) {
            start = from + static_cast<uint64_t>(first - data);
            // Views into the chunk's text stay; the parser's own copies are kept.
            auto keep = [data, end](EventBatch& b, std::string_view& v) {
                if (!v.empty() && !(v.data() >= data && v.data() + v.size() <= end))
                    v = b.owned.keep(v);
            };
            const char* p = first;
            for (;;) {
                const uint64_t at = from + static_cast<uint64_t>(p - data);
                resume = at;
                if (at >= limit) break;                      // the next chunk's events
                if (batch->count >= kMaxChunkEvents) break;  // the reader goes on from here
                json::Cursor c{p, end};
                RawEvent& ev = parser.event;
                ev.reset();
                if (parser.parser.parse(c, at, ev) != json::Status::Ok) break;
                if (static_cast<size_t>(c.p - p) > options_.maxEventBytes) break;
                appendEventCopy(*batch, ev, keep);
                p = c.p;
                while (p < end && (json::isWs(*p) || *p == ','))
                    ++p;
                if (p == end || *p != '{') {  // the array's end, or something for the reader
                    resume = from + static_cast<uint64_t>(p - data);
                    break;
                }
            }
        }
    } catch (...) {  // out of memory here: the reader parses the chunk itself
        start = kNoStart;
        if (batch) batch->clear();
    }
    {
        std::lock_guard lock(mutex_);
        Chunk& chunk = chunks_[index];
        if (chunk.state == State::Parsing && batch) {
            chunk.state = State::Parsed;
            chunk.start = start;
            chunk.resume = resume;
            chunk.batch = std::move(batch);
        } else {
            if (chunk.state == State::Parsing) chunk.state = State::Parsed;
            if (batch) spare_.push_back(std::move(batch));
        }
    }
    changed_.notify_all();
}

uint64_t ChunkedEvents::jump(uint64_t offset, EventSink& sink, uint64_t& events) {
    std::unique_lock lock(mutex_);
    const auto index = static_cast<size_t>(offset / options_.chunkBytes);
    if (index <= current_ || index >= chunkCount_) return offset;  // (a file that grew)
    // Chunks the reader went past (inside one long event) are no use now.
    for (size_t k = current_ + 1; k < index; ++k) {
        Chunk& passed = chunks_[k];
        if (passed.batch) spare_.push_back(std::move(passed.batch));
        passed.state = State::Reader;
    }
    current_ = index;
    nextCheck_ = index + 1 < chunkCount_ ? (index + 1) * uint64_t{options_.chunkBytes} : UINT64_MAX;
    changed_.notify_all();  // the lookahead moved on
    Chunk& chunk = chunks_[index];
    for (;;) {
        if (chunk.state == State::Unclaimed && options_.readerParsesChunks) {
            chunk.state = State::Parsing;
            lock.unlock();
            parse(index, *readerParser_);
            lock.lock();
            continue;
        }
        if (chunk.state == State::Unclaimed || chunk.state == State::Reader) {
            // The reader's own, parsed in place.
            chunk.state = State::Reader;
            return offset;
        }
        if (chunk.state == State::Parsed) break;
        // Parsing elsewhere: parse one further ahead meanwhile, or wait.
        if (const size_t other = claimLocked()) {
            lock.unlock();
            parse(other, *readerParser_);
            lock.lock();
        } else if (chunk.state == State::Parsing) {
            changed_.wait(lock);
        }
    }
    chunk.state = State::Reader;
    std::unique_ptr<EventBatch> batch = std::move(chunk.batch);
    const bool usable = batch && chunk.start == offset;
    const uint64_t resume = chunk.resume;
    lock.unlock();
    uint64_t next = offset;
    if (usable) {
        for (size_t i = 0; i < batch->count; ++i) {
            RawEvent& ev = batch->events[i];
            ev.index = events++;
            sink.onEvent(ev);
        }
        jumpedEvents_ += batch->count;
        next = resume;
    }
    if (batch) {
        lock.lock();
        spare_.push_back(std::move(batch));
    }
    return next;
}

}  // namespace gapscope
