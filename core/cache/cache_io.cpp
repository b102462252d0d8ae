#include "cache/cache_io.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "util/fast_hash.h"

namespace gapscope {
namespace {
constexpr size_t kBufferBytes = 1u << 20;
// Bigger transfers bypass the buffer: one copy, page cache to destination.
constexpr size_t kDirectBytes = 256u << 10;
}  // namespace

CacheWriter::CacheWriter(int fd) : fd_(fd), buffer_(kBufferBytes) {}

void CacheWriter::writeAll(const char* data, size_t size) {
    while (size > 0) {
        const ssize_t n = ::write(fd_, data, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw std::runtime_error(std::strerror(n < 0 ? errno : ENOSPC));
        data += n;
        size -= static_cast<size_t>(n);
    }
}

void CacheWriter::bytes(const void* data, size_t size) {
    if (size == 0) return;  // (an empty vector's data() may be null)
    hash_ = fastHash(data, size, hash_);
    written_ += size;
    const auto* p = static_cast<const char*>(data);
    if (size >= kDirectBytes) {
        flush();
        writeAll(p, size);
        return;
    }
    if (used_ + size > buffer_.size()) flush();
    std::memcpy(buffer_.data() + used_, p, size);
    used_ += size;
}

void CacheWriter::string(std::string_view s) {
    pod<uint64_t>(s.size());
    bytes(s.data(), s.size());
}

void CacheWriter::flush() {
    writeAll(buffer_.data(), used_);
    used_ = 0;
}

CacheReader::CacheReader(int fd, uint64_t available)
    : fd_(fd), available_(available), buffer_(kBufferBytes) {}

size_t CacheReader::fill() {
    for (;;) {
        const ssize_t n = ::read(fd_, buffer_.data(), buffer_.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw CacheCorrupt("the cache file ends early");
        pos_ = 0;
        end_ = static_cast<size_t>(n);
        return end_;
    }
}

void CacheReader::bytes(void* data, size_t size) {
    if (size == 0) return;  // as the writer: nothing hashed, nothing copied
    if (size > available_) throw CacheCorrupt("the cache file ends early");
    available_ -= size;
    auto* out = static_cast<char*>(data);
    const size_t buffered = std::min(size, end_ - pos_);
    std::memcpy(out, buffer_.data() + pos_, buffered);
    pos_ += buffered;
    size_t done = buffered;
    while (size - done >= kDirectBytes) {
        const ssize_t n = ::read(fd_, out + done, size - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw CacheCorrupt("the cache file ends early");
        done += static_cast<size_t>(n);
    }
    while (done < size) {
        if (pos_ == end_) fill();
        const size_t take = std::min(size - done, end_ - pos_);
        std::memcpy(out + done, buffer_.data() + pos_, take);
        pos_ += take;
        done += take;
    }
    hash_ = fastHash(data, size, hash_);
}

uint64_t CacheReader::count(size_t itemBytes) {
    const auto n = pod<uint64_t>();
    if (itemBytes > 0 && n > available_ / itemBytes) throw CacheCorrupt("a count is out of range");
    if (itemBytes == 0 && n > available_) throw CacheCorrupt("a count is out of range");
    return n;
}

std::string CacheReader::string() {
    std::string s(static_cast<size_t>(count(1)), '\0');
    bytes(s.data(), s.size());
    return s;
}

}  // namespace gapscope
