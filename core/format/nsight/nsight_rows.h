#pragma once
// The rows of an Nsight Systems export that become events, one table at a
// time: which columns the reader selects from each (read from the file's
// schema, which changes between releases) and the args a person sees for
// one row. The reader composes those args at load only for an export it
// holds in memory; for an export on disk an event keeps its row's table
// and rowid, and NsightArgsDecoder composes the same text from the same
// columns when a person looks.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "format/nsight/sqlite_db.h"

namespace gapscope::nsight {

// The tables whose rows' args are composed from their columns.
enum class RowTable : uint8_t { Kernel = 1, Memcpy, Memset, Graph, Runtime, OsRuntime };
inline constexpr uint8_t kRowTableCount = 6;
// "CUPTI_ACTIVITY_KIND_KERNEL", …
constexpr const char* tableName(RowTable table) {
    switch (table) {
        case RowTable::Kernel:
            return "CUPTI_ACTIVITY_KIND_KERNEL";
        case RowTable::Memcpy:
            return "CUPTI_ACTIVITY_KIND_MEMCPY";
        case RowTable::Memset:
            return "CUPTI_ACTIVITY_KIND_MEMSET";
        case RowTable::Graph:
            return "CUPTI_ACTIVITY_KIND_GRAPH_TRACE";
        case RowTable::Runtime:
            return "CUPTI_ACTIVITY_KIND_RUNTIME";
        case RowTable::OsRuntime:
            return "OSRT_API";
    }
    return "";
}

// The first of `columns` the table has; a LoadError naming them all when none.
std::string oneOf(const sqlite::Database& db, const char* table,
                  std::initializer_list<const char*> columns);
// An optional column: its name when the table has it, else "" (selects NULL).
std::string optionalColumn(const sqlite::Database& db, const char* table, const char* column);

// What a row's args name elsewhere in the export: a StringIds text (false
// when there is none), the sync type of a call's correlation (nullopt when
// the call waited for nothing recorded).
struct RowLookups {
    std::function<bool(int64_t id, std::string_view& text)> string;
    std::function<std::optional<int64_t>(int64_t pid, int64_t correlation)> syncType;
};

// The columns the reader selects from `table`, in the order RowColumn names:
//  - GPU tables: start, end, deviceId, streamId, correlationId, globalPid,
//    then the table's own (kKernel*, kCopy*, kSet*, kGraphId);
//  - Runtime: start, end, globalTid, correlationId, nameId, returnValue;
//  - OsRuntime: start, end, globalTid, nameId, returnValue.
// An optional column this release lacks is "".
std::vector<std::string> rowColumns(const sqlite::Database& db, RowTable table);
namespace col {
inline constexpr int kStart = 0, kEnd = 1;
inline constexpr int kDevice = 2, kStream = 3, kCorrelation = 4, kGlobalPid = 5;  // GPU tables
inline constexpr int kKernelName = 6, kKernelShortName = 7, kGrid = 8, kBlock = 11, kRegisters = 14,
                     kStaticShared = 15, kDynamicShared = 16, kContext = 17;
inline constexpr int kCopyBytes = 6, kCopyKind = 7, kCopySrcKind = 8, kCopyDstKind = 9;
inline constexpr int kSetBytes = 6, kSetMemKind = 7, kSetValue = 8;
inline constexpr int kGraphId = 6;
inline constexpr int kHostTid = 2;                                          // Runtime, OsRuntime
inline constexpr int kCallCorrelation = 3, kCallName = 4, kCallReturn = 5;  // Runtime
inline constexpr int kOsName = 3, kOsReturn = 4;                            // OsRuntime
}  // namespace col

// Serialized ids (the export's "Serialized process and thread
// identifiers"): bits 24..47 the pid, bits 0..23 the tid, above them the VM.
int64_t pidOf(int64_t globalId);
int64_t tidOf(int64_t globalTid);

// The args of one row of `table`, selected with rowColumns(db, table), as a
// JSON object into `json`; false when the row has none (an OS call without
// a return value).
bool composeRowArgs(RowTable table, const std::vector<std::string>& columns,
                    const sqlite::Rows& row, const RowLookups& lookups, std::string& json);

// Whether a row of `table` has args (an OS call has none without a return
// value); composeRowArgs returns the same.
bool rowHasArgs(RowTable table, const sqlite::Rows& row);

// CUDA's names for its enums, as the export's numbers say them.
const char* syncTypeName(int64_t type);

}  // namespace gapscope::nsight
