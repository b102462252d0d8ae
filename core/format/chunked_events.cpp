#include "format/chunked_events.h"

#include <algorithm>
#include <cstring>
#include <system_error>

#include "format/event_parser.h"
#include "io/file_source.h"
#include "util/helper_priority.h"

namespace gapscope {

namespace {

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

// An event running further than the slack is left to the reader. (Tests'
// tiny chunks read a little, so that every path is taken.)
size_t ChunkedEvents::slackBytes(size_t chunkBytes) {
    return std::clamp<size_t>(chunkBytes / 8, 4 * 1024, 64 * 1024);
}

ChunkedEvents::ChunkedEvents(Options options) : options_(std::move(options)) {
    options_.chunkBytes = std::max<size_t>(options_.chunkBytes, 16);
    span_ = options_.chunkBytes + slackBytes(options_.chunkBytes);
    maxFedBatches_ = std::max<size_t>(kLookahead + 2, kFedTextBudget / span_);
    if (fed()) {
        nextCheck_ = options_.chunkBytes;  // chunks appear with the stream's bytes
    } else {
        chunkCount_ = static_cast<size_t>((options_.fileSize + options_.chunkBytes - 1) /
                                          options_.chunkBytes);
        chunks_.resize(chunkCount_);
        nextCheck_ = chunkCount_ > 1 ? options_.chunkBytes : UINT64_MAX;
    }
    readerParser_ = std::make_unique<Parser>();
    for (int i = 0; i < options_.workers && (fed() || chunkCount_ > 1); ++i) {
        try {
            workers_.emplace_back([this] {
                // Beside an inflating thread, whose text everything waits for.
                if (fed()) lowerHelperThreadPriority();
                work();
            });
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
        Chunk& chunk = chunks_[k];
        if (chunk.state == State::Unclaimed && (!fed() || chunk.textComplete)) {
            chunk.state = State::Parsing;
            return k;
        }
    }
    return 0;
}

std::unique_ptr<EventBatch> ChunkedEvents::spareLocked() {
    if (spare_.empty()) return nullptr;
    std::unique_ptr<EventBatch> batch = std::move(spare_.back());
    spare_.pop_back();
    return batch;
}

void ChunkedEvents::recycleLocked(std::unique_ptr<EventBatch> batch) noexcept {
    if (!batch) return;
    try {
        spare_.push_back(std::move(batch));
    } catch (...) {  // no room to keep it: it is freed instead
    }
}

void ChunkedEvents::onBytes(uint64_t offset, const char* data, size_t size) noexcept {
    if (size == 0) return;
    const uint64_t chunkBytes = options_.chunkBytes;
    const uint64_t slack = span_ - chunkBytes;
    const uint64_t end = offset + size;
    bool completed = false;
    {
        std::lock_guard lock(mutex_);
        const auto lastIndex = static_cast<size_t>((end - 1) / chunkBytes);
        try {
            while (chunks_.size() <= lastIndex)
                chunks_.emplace_back();
        } catch (...) {
            return;  // the reader parses where no chunk could be kept
        }
        chunkCount_ = chunks_.size();
        // The chunks whose text [k * chunkBytes, + span_) these bytes reach,
        // the reader's own included (it may be waiting for the rest of it).
        const auto firstIndex = std::max<size_t>(
            offset >= slack ? static_cast<size_t>((offset - slack) / chunkBytes) : 0,
            std::max<size_t>(current_, 1));
        for (size_t k = firstIndex; k <= lastIndex; ++k) {
            Chunk& chunk = chunks_[k];
            if (chunk.state != State::Unclaimed || chunk.textComplete) continue;
            const uint64_t from = k * chunkBytes;
            const uint64_t lo = std::max(offset, from), hi = std::min(end, from + span_);
            if (lo >= hi) continue;
            // Text with a hole in it (the chunk could not be kept before)
            // is left to the reader, as is one that cannot be kept now, or
            // one past the budget: the reader may be far behind, inside a
            // huge value, and must not find the rest of the stream copied.
            bool kept = lo == from + chunk.textBytes;
            if (kept && !chunk.batch) {
                try {
                    chunk.batch = spareLocked();
                    if (!chunk.batch && batchesMade_ < maxFedBatches_) {
                        chunk.batch = std::make_unique<EventBatch>();
                        ++batchesMade_;
                    }
                    if (!chunk.batch) throw std::bad_alloc();
                    chunk.batch->clear();
                    if (chunk.batch->buffer.size() < span_) chunk.batch->buffer = RawBuffer(span_);
                } catch (...) {
                    kept = false;
                }
            }
            if (!kept) {
                chunk.state = State::Reader;
                recycleLocked(std::move(chunk.batch));
                completed = true;  // the reader may be waiting for it
                continue;
            }
            std::memcpy(chunk.batch->buffer.data() + (lo - from), data + (lo - offset), hi - lo);
            chunk.textBytes = static_cast<size_t>(hi - from);
            if (chunk.textBytes == span_) completed = chunk.textComplete = true;
        }
    }
    if (completed) changed_.notify_all();
}

void ChunkedEvents::onEnd(uint64_t) noexcept {
    {
        std::lock_guard lock(mutex_);
        for (size_t k = std::max<size_t>(current_, 1); k < chunkCount_; ++k)
            chunks_[k].textComplete = true;  // the stream's last chunks are shorter
    }
    changed_.notify_all();
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
    size_t length = 0;
    {
        std::lock_guard lock(mutex_);
        if (fed()) {  // its text is in its batch already
            batch = std::move(chunks_[index].batch);
            length = chunks_[index].textBytes;
        } else {
            batch = spareLocked();
        }
    }
    uint64_t start = kNoStart, resume = 0;
    try {
        const uint64_t from = index * uint64_t{options_.chunkBytes};
        const uint64_t limit = from + options_.chunkBytes;  // the next chunk's nominal start
        if (!fed()) {
            if (!batch) batch = std::make_unique<EventBatch>();
            length =
                static_cast<size_t>(std::min<uint64_t>(options_.fileSize, from + span_) - from);
            if (batch->buffer.size() < length) batch->buffer = RawBuffer(length);
            length = preadFully(options_.fd, batch->buffer.data(), length, from);
        }
        if (!batch) throw std::bad_alloc();  // (fed: its text could not be kept)
        batch->clear();
        const char* data = batch->buffer.data();
        const char* end = data + length;
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
            recycleLocked(std::move(batch));
        }
    }
    changed_.notify_all();
}

uint64_t ChunkedEvents::jump(uint64_t offset, EventSink& sink, uint64_t& events) {
    std::unique_lock lock(mutex_);
    const auto index = static_cast<size_t>(offset / options_.chunkBytes);
    if (index <= current_) return offset;
    // Chunks the reader went past (inside one long event) are no use now.
    for (size_t k = current_ + 1; k < std::min(index, chunkCount_); ++k) {
        Chunk& passed = chunks_[k];
        recycleLocked(std::move(passed.batch));
        passed.state = State::Reader;
    }
    current_ = index;
    const uint64_t next = (index + 1) * uint64_t{options_.chunkBytes};
    changed_.notify_all();       // the lookahead moved on
    if (index >= chunkCount_) {  // past the chunks: a file that grew, or a stream's end
        nextCheck_ = fed() ? next : UINT64_MAX;
        return offset;
    }
    nextCheck_ = fed() || index + 1 < chunkCount_ ? next : UINT64_MAX;
    Chunk& chunk = chunks_[index];
    for (;;) {
        if (chunk.state == State::Unclaimed && options_.readerParsesChunks) {
            // The rest of its text is on its way: the decompressing thread
            // runs ahead of the reader by more than a chunk's text (see
            // ReadAheadSource::kAheadBytes), so this wait ends.
            if (fed() && !chunk.textComplete) {
                changed_.wait(lock);
                continue;
            }
            chunk.state = State::Parsing;
            lock.unlock();
            parse(index, *readerParser_);
            lock.lock();
            continue;
        }
        if (chunk.state == State::Unclaimed || chunk.state == State::Reader) {
            // The reader's own, parsed in place (a fed chunk's text is not needed).
            chunk.state = State::Reader;
            recycleLocked(std::move(chunk.batch));
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
    uint64_t resumeAt = offset;
    if (usable) {
        for (size_t i = 0; i < batch->count; ++i) {
            RawEvent& ev = batch->events[i];
            ev.index = events++;
            sink.onEvent(ev);
        }
        jumpedEvents_ += batch->count;
        resumeAt = resume;
    }
    if (batch) {
        lock.lock();
        recycleLocked(std::move(batch));
    }
    return resumeAt;
}

}  // namespace gapscope
