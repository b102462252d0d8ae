#include "io/file_stamp.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <vector>

#include "util/fast_hash.h"
#include "util/unique_fd.h"

namespace gapscope {
namespace {

constexpr uint64_t kEdgeBytes = 64 * 1024;

bool readAt(int fd, char* dst, size_t n, uint64_t offset) {
    size_t got = 0;
    while (got < n) {
        const ssize_t r = ::pread(fd, dst + got, n - got, static_cast<off_t>(offset + got));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        got += static_cast<size_t>(r);
    }
    return true;
}

}  // namespace

FileStamp stampOfDescriptor(int fd) {
    FileStamp stamp;
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return stamp;
    stamp.size = static_cast<uint64_t>(st.st_size);
    stamp.mtimeNs = st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
    const uint64_t head = std::min(stamp.size, kEdgeBytes);
    const uint64_t tailStart = std::max(head, stamp.size - std::min(stamp.size, kEdgeBytes));
    std::vector<char> bytes(static_cast<size_t>(head + (stamp.size - tailStart)));
    if (!readAt(fd, bytes.data(), static_cast<size_t>(head), 0)) return stamp;
    if (!readAt(fd, bytes.data() + head, static_cast<size_t>(stamp.size - tailStart), tailStart))
        return stamp;
    stamp.headTailHash = fastHash(bytes.data(), bytes.size(), stamp.size);
    stamp.valid = true;
    return stamp;
}

FileStamp stampOfPath(const std::string& path) {
    const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (!fd.valid()) return {};
    return stampOfDescriptor(fd.get());
}

}  // namespace gapscope
