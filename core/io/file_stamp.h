#pragma once
// Which version of a file a model was built from: size, modification time
// and a hash of its first and last 64 KiB. The index cache trusts a model
// only while all three still match (an mtime alone survives `cp -p`, and a
// hash of the whole file would cost as much as reading it).

#include <cstdint>
#include <string>
#include <vector>

namespace gapscope {

struct FileStamp {
    bool valid = false;  // false for traces that did not come from a file
    uint64_t size = 0;
    int64_t mtimeNs = 0;
    uint64_t headTailHash = 0;
    bool operator==(const FileStamp&) const = default;
};

// Stamp of an open descriptor (reads 128 KiB with pread; the offset is not
// moved). Invalid when fstat or a read fails.
FileStamp stampOfDescriptor(int fd);

// Stamp of a path; invalid when it cannot be opened. A folder (a profile
// run) is stamped by its XSpace files: their total size, the newest mtime
// and a hash of each one's name and stamp, so that a changed, added or
// removed host file makes a new stamp.
FileStamp stampOfPath(const std::string& path);
FileStamp stampOfFolder(const std::string& dir);
// The same of these files (a run's, as found when it was opened), each
// file's stamp taken on up to `threads` threads.
FileStamp stampOfFiles(const std::vector<std::string>& files, unsigned threads = 1);

}  // namespace gapscope
