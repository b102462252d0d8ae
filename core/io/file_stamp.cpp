#include "io/file_stamp.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <system_error>
#include <thread>
#include <vector>

#include "io/profile_files.h"
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

FileStamp stampOfFolder(const std::string& dir) {
    return stampOfFiles(xspaceFilesIn(dir));
}

FileStamp stampOfFiles(const std::vector<std::string>& files, unsigned threads) {
    FileStamp stamp;
    if (files.empty()) return stamp;
    // Each file's own stamp (128 KiB read from each: a job of 1024 files
    // reads 128 MB, so on several threads when asked).
    std::vector<FileStamp> each(files.size());
    std::vector<char> done(files.size(), 0);
    const size_t workers = std::clamp<size_t>(threads, 1, files.size());
    auto stampSome = [&](size_t first) {
        for (size_t i = first; i < files.size(); i += workers) {
            each[i] = stampOfPath(files[i]);
            done[i] = 1;
        }
    };
    std::vector<std::thread> helpers;
    try {
        for (size_t w = 1; w < workers; ++w)
            helpers.emplace_back(stampSome, w);
    } catch (const std::system_error&) {
        // (No thread to be had: what the missing helpers would have stamped
        // is stamped below.)
    }
    stampSome(0);
    for (std::thread& t : helpers)
        t.join();
    for (size_t i = 0; i < files.size(); ++i)
        if (!done[i]) each[i] = stampOfPath(files[i]);
    std::vector<uint64_t> parts;
    for (size_t i = 0; i < files.size(); ++i) {
        const FileStamp& one = each[i];
        if (!one.valid) return {};
        stamp.size += one.size;
        stamp.mtimeNs = std::max(stamp.mtimeNs, one.mtimeNs);
        const std::string name = std::filesystem::path(files[i]).filename().string();
        parts.push_back(fastHash(name.data(), name.size(), one.size));
        parts.push_back(one.headTailHash);
        parts.push_back(static_cast<uint64_t>(one.mtimeNs));
    }
    stamp.headTailHash = fastHash(parts.data(), parts.size() * sizeof(uint64_t), stamp.size);
    stamp.valid = true;
    return stamp;
}

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
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return stampOfFolder(path);
    const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (!fd.valid()) return {};
    return stampOfDescriptor(fd.get());
}

}  // namespace gapscope
