#include "io/read_ahead_source.h"

#include <algorithm>
#include <cstring>

namespace gapscope {

ReadAheadSource::ReadAheadSource(std::unique_ptr<ByteSource> inner, size_t blockBytes,
                                 size_t blocks, StreamTap* tap)
    : inner_(std::move(inner)), tap_(tap) {
    for (size_t i = 0; i < blocks; ++i)
        free_.push_back(Block{std::vector<char>(blockBytes), 0});
    thread_ = std::thread([this] { produce(); });
}

ReadAheadSource::~ReadAheadSource() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

void ReadAheadSource::produce() {
    for (;;) {
        Block block;
        {
            std::unique_lock lock(mutex_);
            cv_.wait(lock, [&] { return stopping_ || !free_.empty(); });
            if (stopping_) return;
            block = std::move(free_.back());
            free_.pop_back();
        }
        // Fill the whole block: fewer hand-overs, and the end is a short one.
        size_t got = 0;
        std::exception_ptr error;
        try {
            while (got < block.bytes.size()) {
                const size_t n = inner_->read(block.bytes.data() + got, block.bytes.size() - got);
                if (n == 0) break;
                got += n;
            }
        } catch (...) {
            error = std::current_exception();
        }
        block.size = got;
        const bool end = got < block.bytes.size() || error;
        // The tap sees the bytes before the reader can.
        if (tap_ && got > 0) tap_->onBytes(produced_, block.bytes.data(), got);
        produced_ += got;
        if (tap_ && end) tap_->onEnd(produced_);
        std::lock_guard lock(mutex_);
        position_ = inner_->filePosition();
        if (got > 0) full_.push_back(std::move(block));
        if (end) {
            ended_ = true;
            error_ = error;
            endProblem_ = inner_->problem();
        }
        cv_.notify_all();
        if (end) return;
    }
}

bool ReadAheadSource::nextBlock() {
    std::unique_lock lock(mutex_);
    if (current_.bytes.size()) free_.push_back(std::move(current_));
    cv_.notify_all();
    cv_.wait(lock, [&] { return !full_.empty() || ended_; });
    if (full_.empty()) {
        finished_ = true;
        problem_ = endProblem_;
        if (error_) std::rethrow_exception(error_);
        return false;
    }
    current_ = std::move(full_.front());
    full_.pop_front();
    consumed_ = 0;
    return true;
}

size_t ReadAheadSource::read(char* dst, size_t capacity) {
    if (finished_) return 0;
    if (consumed_ == current_.size && !nextBlock()) return 0;
    const size_t n = std::min(capacity, current_.size - consumed_);
    std::memcpy(dst, current_.bytes.data() + consumed_, n);
    consumed_ += n;
    return n;
}

uint64_t ReadAheadSource::skip(uint64_t bytes) {
    // Blocks passed over go back to the producer without being copied.
    uint64_t skipped = 0;
    while (skipped < bytes && !finished_) {
        if (consumed_ == current_.size && !nextBlock()) break;
        const size_t n =
            static_cast<size_t>(std::min<uint64_t>(bytes - skipped, current_.size - consumed_));
        consumed_ += n;
        skipped += n;
    }
    return skipped;
}

uint64_t ReadAheadSource::filePosition() const {
    std::lock_guard lock(mutex_);
    return position_;
}

}  // namespace gapscope
