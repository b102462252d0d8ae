#include "model/args_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <system_error>
#include <thread>
#include <utility>

#include "util/helper_priority.h"

namespace gapscope {

// Compresses the blocks on a thread of its own, one block at a time, so
// that the builder goes on appending meanwhile (compressing took an eighth
// of the reading thread's time on a compressed trace). One context and
// output buffer serve every block. Without a thread to be had, submit()
// compresses in the caller.
class ArgsStore::Compressor {
  public:
    Compressor() : context_(ZSTD_createCCtx()) {
        try {
            thread_ = std::thread([this] {
                lowerHelperThreadPriority();
                run();
            });
        } catch (const std::system_error&) {
        }
    }
    ~Compressor() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        changed_.notify_all();
        if (thread_.joinable()) thread_.join();
        ZSTD_freeCCtx(context_);
    }
    Compressor(const Compressor&) = delete;
    Compressor& operator=(const Compressor&) = delete;

    // Takes `raw` (swapped with the previous block's text, emptied, so its
    // capacity is reused). Call take() first for the block before.
    void submit(std::string& raw) {
        input_.swap(raw);
        raw.clear();
        pending_ = true;
        if (!thread_.joinable()) {
            compress();
            return;
        }
        {
            std::lock_guard lock(mutex_);
            busy_ = true;
        }
        changed_.notify_all();
    }
    // The frame of the block submitted last (waiting for it), if any. What
    // the compression threw (out of memory) is thrown here, on the
    // appending thread, as it was when it compressed there itself.
    bool take(std::vector<char>& frame) {
        if (!pending_) return false;
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return !busy_; });
        pending_ = false;
        if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
        frame.assign(out_.data(), out_.data() + kept_);
        return true;
    }
    // The text of the block submitted last while its frame is not taken.
    const std::string* pendingText() const { return pending_ ? &input_ : nullptr; }

  private:
    void run() {
        std::unique_lock lock(mutex_);
        for (;;) {
            changed_.wait(lock, [&] { return stopping_ || busy_; });
            if (stopping_) return;
            lock.unlock();
            compress();
            lock.lock();
            busy_ = false;
            changed_.notify_all();
        }
    }
    void compress() noexcept {
        try {
            compressInput();
        } catch (...) {
            error_ = std::current_exception();
        }
    }
    void compressInput() {
        kept_ = 0;
        const size_t bound = ZSTD_compressBound(input_.size());
        if (out_.size() < bound) out_ = RawBuffer(bound);
        // Level 1: args are written once and rarely read; favour load speed.
        // (With a fresh context when none could be made, as ZSTD_compress does.)
        const size_t n =
            context_
                ? ZSTD_compressCCtx(context_, out_.data(), bound, input_.data(), input_.size(), 1)
                : ZSTD_compress(out_.data(), bound, input_.data(), input_.size(), 1);
        // An empty frame fails to decompress: reported then.
        kept_ = ZSTD_isError(n) ? 0 : n;
    }

    ZSTD_CCtx* context_;
    RawBuffer out_;  // not zero-filled: zstd writes what is read back
    std::string input_;
    size_t kept_ = 0;
    std::exception_ptr error_;
    bool pending_ = false;  // (the appending thread's)
    bool busy_ = false, stopping_ = false;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::thread thread_;
};

ArgsStore::ArgsStore() : mutex_(std::make_unique<std::mutex>()) {}
ArgsStore::~ArgsStore() = default;

ArgsStore::ArgsStore(ArgsStore&& o) noexcept
    : blocks_(std::move(o.blocks_)),
      blockStart_(std::move(o.blockStart_)),
      current_(std::move(o.current_)),
      rawBytes_(o.rawBytes_),
      compressor_(std::move(o.compressor_)),
      parts_(std::move(o.parts_)),
      fd_(std::move(o.fd_)),
      decoder_(std::move(o.decoder_)),
      fileSize_(o.fileSize_),
      fileMtimeNs_(o.fileMtimeNs_),
      fileChanged_(o.fileChanged_.load()),
      mutex_(std::move(o.mutex_)),
      cachedBlock_(o.cachedBlock_),
      cached_(std::move(o.cached_)) {}

ArgsStore& ArgsStore::operator=(ArgsStore&& o) noexcept {
    blocks_ = std::move(o.blocks_);
    blockStart_ = std::move(o.blockStart_);
    current_ = std::move(o.current_);
    rawBytes_ = o.rawBytes_;
    compressor_ = std::move(o.compressor_);
    parts_ = std::move(o.parts_);
    fd_ = std::move(o.fd_);
    decoder_ = std::move(o.decoder_);
    fileSize_ = o.fileSize_;
    fileMtimeNs_ = o.fileMtimeNs_;
    fileChanged_.store(o.fileChanged_.load());
    mutex_ = std::move(o.mutex_);
    cachedBlock_ = o.cachedBlock_;
    cached_ = std::move(o.cached_);
    return *this;
}

void ArgsStore::useFile(UniqueFd fd, uint64_t size, int64_t mtimeNs,
                        std::shared_ptr<const ArgsDecoder> decoder) {
    fd_ = std::move(fd);
    decoder_ = std::move(decoder);
    fileSize_ = size;
    fileMtimeNs_ = mtimeNs;
}

bool ArgsStore::fileUnchanged(std::string& error) const {
    struct stat st {};
    if (::fstat(fd_.get(), &st) != 0) {
        error = std::string("cannot check the trace file: ") + std::strerror(errno);
        return false;
    }
    if (static_cast<uint64_t>(st.st_size) == fileSize_ &&
        st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec == fileMtimeNs_)
        return true;
    fileChanged_.store(true, std::memory_order_relaxed);
    error = "the trace file changed on disk since it was loaded; reload it to see args";
    return false;
}

bool ArgsStore::readFile(uint64_t offset, uint64_t length, std::string& out,
                         std::string& error) const {
    out.clear();
    if (!fileUnchanged(error)) return false;
    if (offset > fileSize_) {
        error = "args at byte " + std::to_string(offset) + " lie past the end of the file";
        return false;
    }
    length = std::min(length, fileSize_ - offset);
    out.resize(static_cast<size_t>(length));
    size_t got = 0;
    while (got < length) {
        const ssize_t n =
            ::pread(fd_.get(), out.data() + got, length - got, static_cast<off_t>(offset + got));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            out.clear();
            // A file cut short under us is a changed file; say so first.
            if (!fileUnchanged(error)) return false;
            error = "reading the trace file at byte " + std::to_string(offset + got) +
                    " failed: " + (n < 0 ? std::strerror(errno) : "unexpected end of file");
            return false;
        }
        got += static_cast<size_t>(n);
    }
    // Checked again after the read: a rewrite that landed between the first
    // check and the read must not pass for the args.
    if (!fileUnchanged(error)) {
        out.clear();
        return false;
    }
    return true;
}

ArgsText ArgsStore::fetchFromFile(uint64_t offset, uint32_t length) const {
    ArgsText out;
    if (decoder_ && decoder_->resolvesReferences()) {
        // Checked before and after, as a read of bytes is: a file
        // rewritten meanwhile is said so, whatever the decoder made of it.
        if (!fileUnchanged(out.error)) return out;
        const bool decoded =
            decoder_->decodeReference(offset, length, fd_.get(), out.json, out.error);
        std::string changed;
        if (!fileUnchanged(changed)) out.error = std::move(changed);
        if (!decoded || !out.error.empty()) out.json.clear();
        return out;
    }
    std::string bytes;
    if (!readFile(offset, length, bytes, out.error)) return out;
    if (bytes.size() < length) {
        out.error = "args at byte " + std::to_string(offset) + " lie past the end of the file";
        return out;
    }
    if (!decoder_) {
        out.json = std::move(bytes);
        return out;
    }
    const FileBytesReader read = [this](uint64_t at, uint64_t n, std::string& into,
                                        std::string& error) {
        return readFile(at, n, into, error);
    };
    if (!decoder_->decode(bytes, offset, read, out.json, out.error)) out.json.clear();
    return out;
}

uint64_t ArgsStore::append(std::string_view text) {
    const uint64_t offset = rawBytes_;
    // A block holds whole args texts so a fetch never spans blocks.
    if (!current_.empty() && current_.size() + text.size() > kBlockBytes) compressCurrent();
    if (current_.empty()) blockStart_.push_back(offset);
    current_.append(text);
    rawBytes_ += text.size();
    return offset | kOwnedBit;
}

void ArgsStore::compressCurrent() {
    if (!compressor_) compressor_ = std::make_unique<Compressor>();
    takeFrame();
    compressor_->submit(current_);
}

void ArgsStore::takeFrame() {
    std::vector<char> frame;
    if (compressor_ && compressor_->take(frame)) blocks_.push_back(std::move(frame));
}

void ArgsStore::seal() {
    if (!current_.empty()) compressCurrent();
    takeFrame();
    current_.shrink_to_fit();
    compressor_.reset();
}

ArgsText ArgsStore::fetchOwned(uint64_t offset, uint32_t length) const {
    ArgsText out;
    if (offset > rawBytes_ || length > rawBytes_ - offset || blockStart_.empty()) {
        out.error = "args reference " + std::to_string(offset) + " lies outside the store";
        return out;
    }
    const auto it = std::upper_bound(blockStart_.begin(), blockStart_.end(), offset);
    const auto block = static_cast<size_t>(it - blockStart_.begin()) - 1;
    const uint64_t local = offset - blockStart_[block];
    if (block >= blocks_.size()) {  // not sealed yet: being compressed, or still in current_
        const std::string* pending = compressor_ ? compressor_->pendingText() : nullptr;
        const std::string& text = pending && block == blocks_.size() ? *pending : current_;
        out.json = text.substr(static_cast<size_t>(local), length);
        return out;
    }
    if (cachedBlock_ != block) {
        const auto& frame = blocks_[block];
        const uint64_t end = block + 1 < blockStart_.size() ? blockStart_[block + 1] : rawBytes_;
        cached_.resize(static_cast<size_t>(end - blockStart_[block]));
        const size_t n =
            ZSTD_decompress(cached_.data(), cached_.size(), frame.data(), frame.size());
        if (ZSTD_isError(n) || n != cached_.size()) {
            cachedBlock_ = SIZE_MAX;
            out.error = "args block " + std::to_string(block) + " could not be decompressed (" +
                        (ZSTD_isError(n) ? ZSTD_getErrorName(n) : "wrong size") + ")";
            return out;
        }
        cachedBlock_ = block;
    }
    if (local + length > cached_.size()) {
        out.error = "args reference " + std::to_string(offset) + " crosses its block";
        return out;
    }
    out.json = cached_.substr(static_cast<size_t>(local), length);
    return out;
}

bool ArgsStore::fileBacked() const {
    return fd_.valid() ||
           std::any_of(parts_.begin(), parts_.end(), [](const auto& p) { return p->fileBacked(); });
}

bool ArgsStore::fileChanged() const {
    return fileChanged_.load(std::memory_order_relaxed) ||
           std::any_of(parts_.begin(), parts_.end(),
                       [](const auto& p) { return p->fileChanged(); });
}

uint64_t ArgsStore::adoptPart(ArgsStore part) {
    if (parts_.size() >= kMaxParts) throw std::length_error("more than 32767 args stores");
    parts_.push_back(std::make_unique<ArgsStore>(std::move(part)));
    return static_cast<uint64_t>(parts_.size()) << kPartShift;
}

ArgsText ArgsStore::fetch(uint64_t offset, uint32_t length) const {
    if (const uint64_t part = (offset & kPartMask) >> kPartShift; part != 0) {
        if (part > parts_.size()) {
            ArgsText out;
            out.error = "args reference " + std::to_string(offset) + " names no part";
            return out;
        }
        return parts_[part - 1]->fetch(offset & ~kPartMask, length);
    }
    std::lock_guard lock(*mutex_);
    // A decoder's record may be empty; JSON text never is.
    if (length == 0 && ((offset & kOwnedBit) || !decoder_)) return {};
    if (offset & kOwnedBit) return fetchOwned(offset & ~kOwnedBit, length);
    if (!fd_.valid()) {
        ArgsText out;
        out.error = "args reference " + std::to_string(offset) + " points into a file not kept";
        return out;
    }
    return fetchFromFile(offset, length);
}

void ArgsStore::restore(Blocks b) {
    blocks_ = std::move(b.frames);
    blockStart_ = std::move(b.starts);
    rawBytes_ = b.rawBytes;
    current_.clear();
    cachedBlock_ = SIZE_MAX;
}

size_t ArgsStore::memoryBytes() const {
    size_t total = current_.capacity() + cached_.capacity() + blockStart_.capacity() * 8;
    for (const auto& p : parts_)
        total += p->memoryBytes();
    for (const auto& b : blocks_)
        total += b.capacity();
    return total;
}

}  // namespace gapscope
