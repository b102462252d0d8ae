#include "format/nsight/nsight_args_decoder.h"

#include "util/load_error.h"

namespace gapscope::nsight {

NsightArgsDecoder::NsightArgsDecoder() = default;
NsightArgsDecoder::~NsightArgsDecoder() = default;

bool NsightArgsDecoder::decode(std::string_view, uint64_t, const FileBytesReader&,
                               std::string& json, std::string& error) const {
    json.clear();
    error = "an Nsight Systems export's args are rows of its tables, not bytes of the file";
    return false;
}

void NsightArgsDecoder::open(int fileFd) const {
    if (db_) return;
    // Through the trace's descriptor: the file loaded, even if renamed.
    db_ = std::make_unique<sqlite::Database>(sqlite::Database::openDescriptor(fileFd, nullptr));
}

std::optional<int64_t> NsightArgsDecoder::syncType(int64_t pid, int64_t correlation) const {
    // A process numbers its own correlation ids in 32 bits: matched as the
    // reader matches them.
    auto key = [](int64_t p, int64_t c) { return std::pair{p, c & 0xFFFFFFFF}; };
    if (!syncRead_) {
        // Read whole the first time a call's args are asked for (the table
        // has no index on the correlation): one row per sync call. The last
        // row of a correlation wins, as in the reader.
        const char* t = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
        if (db_->hasTable(t)) {
            sqlite::Rows rows = db_->select(t, {"correlationId", oneOf(*db_, t, {"globalPid"}),
                                                optionalColumn(*db_, t, "syncType")});
            try {
                while (rows.next())
                    if (!rows.isNull(0) && rows.integer(0) != 0)
                        syncTypes_[key(pidOf(rows.integer(1)), rows.integer(0))] = rows.integer(2);
            } catch (...) {
                syncTypes_.clear();  // read again for the next call's args
                throw;
            }
        }
        syncRead_ = true;
    }
    const auto it = syncTypes_.find(key(pid, correlation));
    if (it == syncTypes_.end()) return std::nullopt;
    return it->second;
}

bool NsightArgsDecoder::decodeReference(uint64_t offset, uint32_t length, int fileFd,
                                        std::string& json, std::string& error) const {
    json.clear();
    if (length < 1 || length > kRowTableCount) {
        error = "args reference names no table of the export (" + std::to_string(length) + ")";
        return false;
    }
    const auto table = static_cast<RowTable>(length);
    std::lock_guard lock(mutex_);
    try {
        open(fileFd);
        std::vector<std::string>& columns = columns_[length];
        if (columns.empty()) columns = rowColumns(*db_, table);
        sqlite::Rows row =
            db_->selectWhere(tableName(table), columns, "rowid", static_cast<int64_t>(offset));
        if (!row.next()) {
            error = std::string(tableName(table)) + " has no row " + std::to_string(offset);
            return false;
        }
        RowLookups lookups;
        std::string kept;  // a looked-up text outlives its statement
        lookups.string = [&](int64_t id, std::string_view& text) {
            if (!db_->hasTable("StringIds")) return false;
            // The last row of that id, as the reader's table keeps it.
            sqlite::Rows s = db_->selectWhere("StringIds", {"value"}, "id", id);
            bool found = false;
            while (s.next()) {
                kept.assign(s.text(0));
                found = true;
            }
            text = kept;
            return found;
        };
        lookups.syncType = [&](int64_t pid, int64_t corr) { return syncType(pid, corr); };
        if (!composeRowArgs(table, columns, row, lookups, json)) json.clear();
        return true;
    } catch (const LoadError& e) {
        json.clear();
        error = "reading the export's args (" + e.where() + "): " + e.what();
        return false;
    } catch (const std::bad_alloc&) {
        json.clear();
        error = "reading the export's args: out of memory";
        return false;
    }
}

}  // namespace gapscope::nsight
