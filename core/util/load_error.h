#pragma once
// The error type of the loading pipeline. Everything that can go wrong with a
// file ends as one of these at the load() boundary: a message that names the
// file, where (byte offset, or an operation) and what was wrong.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace gapscope {

class LoadError : public std::runtime_error {
  public:
    // `where` is e.g. "byte 1234" or "open"; `what` says what was wrong.
    LoadError(std::string where, const std::string& what)
        : std::runtime_error(what), where_(std::move(where)) {}
    const std::string& where() const { return where_; }

  private:
    std::string where_;
};

// Thrown when the user cancels; never shown as an error.
class LoadCancelled : public std::exception {
  public:
    const char* what() const noexcept override { return "cancelled"; }
};

std::string byteWhere(uint64_t offset, bool decompressed);

}  // namespace gapscope
