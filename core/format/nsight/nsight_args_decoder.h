#pragma once
// The args of an Nsight Systems export's event, composed when a person
// looks at it: an event of a GPU table, of the CUDA API or of the OS
// runtime keeps its row's table and rowid (its ArgsRecord's length and
// offset) instead of JSON text composed at load. The decoder opens the
// export read-only through the trace's own descriptor, once, and composes
// the row's args from the same columns as the reader (nsight_rows.h).

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "format/args_decoder.h"
#include "format/nsight/nsight_rows.h"

namespace gapscope::nsight {

class NsightArgsDecoder final : public ArgsDecoder {
  public:
    NsightArgsDecoder();
    ~NsightArgsDecoder() override;
    bool decode(std::string_view record, uint64_t offset, const FileBytesReader& read,
                std::string& json, std::string& error) const override;
    bool resolvesReferences() const override { return true; }
    // `offset` is the rowid, `length` the RowTable.
    bool decodeReference(uint64_t offset, uint32_t length, int fileFd, std::string& json,
                         std::string& error) const override;

  private:
    void open(int fileFd) const;
    std::optional<int64_t> syncType(int64_t pid, int64_t correlation) const;

    mutable std::mutex mutex_;
    mutable std::unique_ptr<sqlite::Database> db_;
    mutable std::vector<std::string> columns_[kRowTableCount + 1];  // by RowTable, read once
    mutable bool syncRead_ = false;
    mutable std::map<std::pair<int64_t, int64_t>, int64_t> syncTypes_;  // (pid, correlation)
};

}  // namespace gapscope::nsight
