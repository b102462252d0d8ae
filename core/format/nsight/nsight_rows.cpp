#include "format/nsight/nsight_rows.h"

#include <algorithm>

#include "format/json_text.h"

namespace gapscope::nsight {

std::string oneOf(const sqlite::Database& db, const char* table,
                  std::initializer_list<const char*> columns) {
    std::string names;
    for (const char* c : columns) {
        if (db.hasColumn(table, c)) return c;
        names += names.empty() ? "" : " or ";
        names += '"' + std::string(c) + '"';
    }
    db.fail(table, "no column " + names + " (this release of the export is not understood)");
}

std::string optionalColumn(const sqlite::Database& db, const char* table, const char* column) {
    return db.hasColumn(table, column) ? column : "";
}

int64_t pidOf(int64_t globalId) {
    return (globalId >> 24) & 0xFFFFFF;
}

int64_t tidOf(int64_t globalTid) {
    const int64_t tid = globalTid & 0xFFFFFF;
    return tid != 0 ? tid : pidOf(globalTid);  // a process-wide row: its main thread
}

const char* syncTypeName(int64_t k) {
    static const char* names[] = {"unknown", "event synchronize", "stream wait event",
                                  "stream synchronize", "context synchronize"};
    return k >= 0 && k < 5 ? names[k] : "unknown";
}

std::vector<std::string> rowColumns(const sqlite::Database& db, RowTable table) {
    const char* t = tableName(table);
    auto opt = [&](const char* c) { return optionalColumn(db, t, c); };
    auto req = [&](const char* c) { return oneOf(db, t, {c}); };
    std::vector<std::string> cols;
    if (table == RowTable::Runtime || table == RowTable::OsRuntime) {
        cols = {req("start"), req("end"), req("globalTid")};
        if (table == RowTable::Runtime) cols.push_back(req("correlationId"));
        cols.push_back(req("nameId"));
        cols.push_back(opt("returnValue"));
        return cols;
    }
    cols = {req("start"),    req("end"),           req("deviceId"),
            req("streamId"), req("correlationId"), req("globalPid")};
    switch (table) {
        case RowTable::Kernel:
            cols.push_back(oneOf(db, t, {"demangledName", "shortName", "mangledName"}));
            for (const char* c :
                 {"shortName", "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ",
                  "registersPerThread", "staticSharedMemory", "dynamicSharedMemory", "contextId"})
                cols.push_back(opt(c));
            break;
        case RowTable::Memcpy:
            cols.insert(cols.end(),
                        {req("bytes"), req("copyKind"), opt("srcKind"), opt("dstKind")});
            break;
        case RowTable::Memset:
            cols.insert(cols.end(), {req("bytes"), opt("memKind"), opt("value")});
            break;
        case RowTable::Graph:
            cols.push_back(opt("graphId"));
            break;
        default:
            break;
    }
    return cols;
}

namespace {

void composeKernel(const std::vector<std::string>& columns, const sqlite::Rows& row,
                   const RowLookups& lookups, JsonObjectWriter& w) {
    using namespace col;
    if (!row.isNull(kContext)) w.number("context", row.integer(kContext));
    auto triple = [&](const char* key, int first) {
        if (columns[first].empty()) return;
        int32_t v[3];
        for (int i = 0; i < 3; ++i)
            v[i] = static_cast<int32_t>(row.integer(first + i));
        w.triple(key, v);
    };
    triple("grid", kGrid);
    triple("block", kBlock);
    if (!row.isNull(kRegisters) && static_cast<int32_t>(row.integer(kRegisters)) >= 0)
        w.number("registers per thread", static_cast<int32_t>(row.integer(kRegisters)));
    if (!row.isNull(kStaticShared)) w.number("static shared memory", row.integer(kStaticShared));
    if (!row.isNull(kDynamicShared)) w.number("dynamic shared memory", row.integer(kDynamicShared));
    // The short name, unless it is what names the kernel already.
    std::string_view shortName;
    if (!row.isNull(kKernelShortName) && columns[kKernelName] != "shortName" &&
        lookups.string(row.integer(kKernelShortName), shortName))
        w.text("short name", shortName);
}

}  // namespace

bool rowHasArgs(RowTable table, const sqlite::Rows& row) {
    return table != RowTable::OsRuntime || !row.isNull(col::kOsReturn);
}

bool composeRowArgs(RowTable table, const std::vector<std::string>& columns,
                    const sqlite::Rows& row, const RowLookups& lookups, std::string& json) {
    using namespace col;
    JsonObjectWriter w(json);
    switch (table) {
        case RowTable::Runtime: {
            const int64_t corr = row.integer(kCallCorrelation);
            w.number("correlation", corr);
            if (!row.isNull(kCallReturn)) w.number("return value", row.integer(kCallReturn));
            if (corr != 0)
                if (const auto sync = lookups.syncType(pidOf(row.integer(kHostTid)), corr))
                    w.text("synchronization", syncTypeName(*sync));
            break;
        }
        case RowTable::OsRuntime:
            if (!rowHasArgs(table, row)) return false;
            w.number("return value", row.integer(kOsReturn));
            break;
        default:
            w.number("device", row.integer(kDevice));
            w.number("stream", row.integer(kStream));
            w.number("correlation", row.integer(kCorrelation));
            if (table == RowTable::Kernel) composeKernel(columns, row, lookups, w);
            if (table == RowTable::Memcpy) w.number("bytes", row.integer(kCopyBytes));
            if (table == RowTable::Memset) {
                w.number("bytes", row.integer(kSetBytes));
                if (!row.isNull(kSetValue)) w.number("value", row.integer(kSetValue));
            }
            if (table == RowTable::Graph && !row.isNull(kGraphId))
                w.number("graph", row.integer(kGraphId));
            break;
    }
    w.close();
    return true;
}

}  // namespace gapscope::nsight
