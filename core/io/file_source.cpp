#include "io/file_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "util/load_error.h"
#include "util/open_files.h"

namespace gapscope {

FileSource::FileSource(const std::string& path) {
    // O_NONBLOCK so that opening a FIFO without a writer cannot hang; it is
    // rejected below as not a regular file anyway.
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd_ < 0) {
        const int err = errno;
        std::string why = std::strerror(err);
        if (const std::string hint = openFilesHint(err); !hint.empty()) why += " (" + hint + ")";
        throw LoadError("open", why);
    }
    struct stat st {};
    if (::fstat(fd_, &st) != 0) {
        const int err = errno;
        ::close(fd_);
        throw LoadError("open", std::strerror(err));
    }
    if (S_ISDIR(st.st_mode)) {
        ::close(fd_);
        throw LoadError("open", "is a directory, not a trace file");
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd_);
        throw LoadError("open", "not a regular file (a FIFO, socket or device cannot be loaded)");
    }
    const int flags = ::fcntl(fd_, F_GETFL);
    if (flags >= 0) ::fcntl(fd_, F_SETFL, flags & ~O_NONBLOCK);
    size_ = static_cast<uint64_t>(st.st_size);
    mtimeNs_ = st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
    ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
}

int FileSource::duplicateFd() const {
    return ::fcntl(fd_, F_DUPFD_CLOEXEC, 0);
}

FileSource::~FileSource() {
    if (fd_ >= 0) ::close(fd_);
}

size_t FileSource::read(char* dst, size_t capacity) {
    for (;;) {
        const ssize_t n = ::read(fd_, dst, capacity);
        if (n >= 0) {
            position_ += static_cast<uint64_t>(n);
            return static_cast<size_t>(n);
        }
        if (errno == EINTR) continue;
        throw LoadError(byteWhere(position_, false),
                        std::string("read failed: ") + std::strerror(errno));
    }
}

uint64_t FileSource::skip(uint64_t bytes) {
    // Only over bytes known to be there (others read them with pread).
    if (bytes > 0 && ::lseek(fd_, static_cast<off_t>(bytes), SEEK_CUR) < 0)
        return ByteSource::skip(bytes);
    position_ += bytes;
    return bytes;
}

size_t FileSource::peek(uint64_t offset, char* dst, size_t capacity) const {
    return preadFully(fd_, dst, capacity, offset);
}

size_t preadFully(int fd, char* dst, size_t bytes, uint64_t offset) {
    size_t got = 0;
    while (got < bytes) {
        const ssize_t n = ::pread(fd, dst + got, bytes - got, static_cast<off_t>(offset + got));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += static_cast<size_t>(n);
    }
    return got;
}

}  // namespace gapscope
