#include "util/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace gapscope {

namespace {

std::string folderOf(const std::string& path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? std::string(".")
                                      : (slash == 0 ? std::string("/") : path.substr(0, slash));
}

bool writeAll(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        bytes.remove_prefix(static_cast<size_t>(n));
    }
    return true;
}

}  // namespace

std::string writeFileAtomically(const std::string& path, std::string_view bytes,
                                Overwrite overwrite) {
    std::string tmp = folderOf(path) + "/.gapscope-XXXXXX";
    std::vector<char> name(tmp.begin(), tmp.end());
    name.push_back('\0');
    const int fd = ::mkstemp(name.data());
    if (fd < 0) return std::string("cannot create a temporary file: ") + std::strerror(errno);
    tmp.assign(name.data());
    const bool written = writeAll(fd, bytes) && ::fsync(fd) == 0;
    const int writeErrno = errno;
    ::close(fd);
    if (!written) {
        ::unlink(tmp.c_str());
        return std::string("cannot write: ") + std::strerror(writeErrno);
    }
    ::chmod(tmp.c_str(), 0644);  // mkstemp made it private
    int rc = 0;
    if (overwrite == Overwrite::Yes) {
        rc = ::rename(tmp.c_str(), path.c_str());
    } else {
        rc = ::link(tmp.c_str(), path.c_str());  // fails with EEXIST: never replaces
        ::unlink(tmp.c_str());
    }
    if (rc != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        return err == EEXIST ? std::string("the file exists already")
                             : std::string(std::strerror(err));
    }
    return {};
}

}  // namespace gapscope
