#pragma once
// Sequential reads of a regular file through the kernel's read(2).

#include "io/byte_source.h"
#include "io/file_stamp.h"

namespace gapscope {

class FileSource final : public ByteSource {
  public:
    explicit FileSource(const std::string& path);  // throws LoadError
    ~FileSource() override;

    size_t read(char* dst, size_t capacity) override;
    uint64_t skip(uint64_t bytes) override;
    uint64_t filePosition() const override { return position_; }
    uint64_t size() const { return size_; }
    int64_t mtimeNs() const { return mtimeNs_; }
    // A second descriptor of the same open file (for reading args later).
    int duplicateFd() const;
    FileStamp stamp() const { return stampOfDescriptor(fd_); }

    // Reads up to `capacity` bytes at `offset` without moving the stream.
    size_t peek(uint64_t offset, char* dst, size_t capacity) const;

  private:
    int fd_ = -1;
    uint64_t position_ = 0;
    uint64_t size_ = 0;
    int64_t mtimeNs_ = 0;
};

// pread(2) until `bytes` are read at `offset`, the file ends or it fails;
// returns how many were read.
size_t preadFully(int fd, char* dst, size_t bytes, uint64_t offset);

}  // namespace gapscope
