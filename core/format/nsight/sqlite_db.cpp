#include "format/nsight/sqlite_db.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>

#include "util/load_error.h"

namespace gapscope::sqlite {

namespace {

// What one database may make SQLite hold, whatever the file says: the
// longest string or blob, and the page cache. The heap limit is SQLite's
// own and process-wide (only exports are read with SQLite).
constexpr int kMaxValueBytes = 64 << 20;
constexpr int kCacheKiB = 32 << 10;
constexpr sqlite3_int64 kHeapLimitBytes = sqlite3_int64{1} << 30;
constexpr int kProgressOps = 100000;

std::string quoted(std::string_view name) {
    std::string q = "\"";
    for (const char c : name) {
        q += c;
        if (c == '"') q += '"';
    }
    return q + '"';
}

// file: URIs take a path with '%', '?' and '#' escaped.
std::string fileUri(const std::string& path) {
    std::string uri = "file:";
    static const char* hex = "0123456789ABCDEF";
    for (const unsigned char c : path) {
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                           (c >= '0' && c <= '9') || c == '/' || c == '.' || c == '_' || c == '-';
        if (plain) {
            uri += static_cast<char>(c);
        } else {
            uri += '%';
            uri += hex[c >> 4];
            uri += hex[c & 15];
        }
    }
    return uri + "?mode=ro&immutable=1";
}

int pollCancel(void* token) {
    const auto* cancel = static_cast<const CancelToken*>(token);
    return cancel && cancel->isCancelled() ? 1 : 0;
}

}  // namespace

struct Database::Impl {
    sqlite3* db = nullptr;
    const CancelToken* cancel = nullptr;
    bool schemaRead = false;
    // Plain tables, their columns read when first asked for (a table the
    // reader never names is never looked into).
    std::map<std::string, std::optional<std::vector<std::string>>, std::less<>> tables;
    // Views and virtual tables by name: reading one would run the file's
    // SQL or a module's code over the file's bytes.
    std::map<std::string, std::string, std::less<>> refused;
    ~Impl() {
        if (db) sqlite3_close_v2(db);
    }

    void readSchema(const Database& self) {
        if (schemaRead) return;
        schemaRead = true;
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db, "SELECT name, type, sql FROM sqlite_master", -1, &st, nullptr) !=
            SQLITE_OK)
            self.fail("the schema", self.lastError());
        Rows rows(self, st, "the schema");
        while (rows.next()) {
            const std::string_view type = rows.text(1), sql = rows.text(2);
            if (type == "view") {
                refused.emplace(rows.text(0), "a view");
            } else if (type == "table" && isVirtual(sql)) {
                refused.emplace(rows.text(0), "a virtual table");
            } else if (type == "table") {
                tables.emplace(rows.text(0), std::nullopt);
            }  // indexes and triggers (never run: triggers are off) do not matter
        }
    }

    // "CREATE VIRTUAL TABLE …", in any case and spacing.
    static bool isVirtual(std::string_view sql) {
        std::string words;
        for (const char c : sql.substr(0, 64)) {
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                if (!words.empty() && words.back() != ' ') words += ' ';
            } else {
                words += static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
            }
        }
        return words.rfind("CREATE VIRTUAL ", 0) == 0;
    }

    const std::vector<std::string>& columnsOf(const Database& self, const std::string& name,
                                              std::optional<std::vector<std::string>>& cols) {
        if (cols) return *cols;
        cols.emplace();
        sqlite3_stmt* st = nullptr;
        const std::string sql = "PRAGMA table_info(" + quoted(name) + ")";
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
            self.fail(name, self.lastError());
        Rows rows(self, st, name);
        while (rows.next())
            cols->emplace_back(rows.text(1));
        return *cols;
    }
};

Database::Database(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Database::Database(Database&&) noexcept = default;
Database::~Database() = default;

namespace {

std::unique_ptr<Database::Impl> configure(sqlite3* db, const CancelToken* cancel) {
    auto impl = std::make_unique<Database::Impl>();
    impl->db = db;
    impl->cancel = cancel;
    // Nothing in the file runs: no triggers, no views, no functions the
    // schema names; the schema itself is not trusted.
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, kMaxValueBytes);
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
    sqlite3_progress_handler(db, kProgressOps, &pollCancel, const_cast<CancelToken*>(cancel));
    sqlite3_exec(db, ("PRAGMA cache_size = -" + std::to_string(kCacheKiB)).c_str(), nullptr,
                 nullptr, nullptr);
    return impl;
}

void limitHeapOnce() {
    static std::once_flag once;
    std::call_once(once, [] { sqlite3_hard_heap_limit64(kHeapLimitBytes); });
}

// A read-only VFS over a descriptor ("/gapscope-fd/N" opens a duplicate
// of descriptor N): the file an open descriptor reads, whatever became of
// its path, or if it never had one (a memfd). SQLite's own VFS cannot: it
// resolves symlinks, so /proc/self/fd/N would name the path the file was
// opened by (gone once it is deleted or replaced), and opens that path.
struct DescriptorFile {
    sqlite3_file base;
    int fd;
};

int fdOf(sqlite3_file* f) {
    return reinterpret_cast<DescriptorFile*>(f)->fd;
}

int fdClose(sqlite3_file* f) {
    ::close(fdOf(f));
    return SQLITE_OK;
}

int fdRead(sqlite3_file* f, void* into, int amount, sqlite3_int64 offset) {
    auto* out = static_cast<char*>(into);
    int got = 0;
    while (got < amount) {
        const ssize_t n = ::pread(fdOf(f), out + got, static_cast<size_t>(amount - got),
                                  static_cast<off_t>(offset + got));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return SQLITE_IOERR_READ;
        if (n == 0) {
            std::memset(out + got, 0, static_cast<size_t>(amount - got));  // as SQLite asks
            return SQLITE_IOERR_SHORT_READ;
        }
        got += static_cast<int>(n);
    }
    return SQLITE_OK;
}

int fdWrite(sqlite3_file*, const void*, int, sqlite3_int64) {
    return SQLITE_READONLY;
}
int fdTruncate(sqlite3_file*, sqlite3_int64) {
    return SQLITE_READONLY;
}
int fdSync(sqlite3_file*, int) {
    return SQLITE_OK;
}
int fdFileSize(sqlite3_file* f, sqlite3_int64* size) {
    struct stat st {};
    if (::fstat(fdOf(f), &st) != 0) return SQLITE_IOERR_FSTAT;
    *size = st.st_size;
    return SQLITE_OK;
}
int fdLock(sqlite3_file*, int) {
    return SQLITE_OK;  // immutable: nobody writes
}
int fdCheckReservedLock(sqlite3_file*, int* reserved) {
    *reserved = 0;
    return SQLITE_OK;
}
int fdFileControl(sqlite3_file*, int, void*) {
    return SQLITE_NOTFOUND;
}
int fdSectorSize(sqlite3_file*) {
    return 4096;
}
int fdDeviceCharacteristics(sqlite3_file*) {
    return SQLITE_IOCAP_IMMUTABLE;
}

// Version 1: no shared memory (no WAL), no memory mapping.
const sqlite3_io_methods* descriptorMethods() {
    static const sqlite3_io_methods methods = [] {
        sqlite3_io_methods m{};
        m.iVersion = 1;
        m.xClose = &fdClose;
        m.xRead = &fdRead;
        m.xWrite = &fdWrite;
        m.xTruncate = &fdTruncate;
        m.xSync = &fdSync;
        m.xFileSize = &fdFileSize;
        m.xLock = &fdLock;
        m.xUnlock = &fdLock;
        m.xCheckReservedLock = &fdCheckReservedLock;
        m.xFileControl = &fdFileControl;
        m.xSectorSize = &fdSectorSize;
        m.xDeviceCharacteristics = &fdDeviceCharacteristics;
        return m;
    }();
    return &methods;
}

constexpr std::string_view kDescriptorPrefix = "/gapscope-fd/";

int vfsOpen(sqlite3_vfs*, const char* name, sqlite3_file* file, int flags, int* outFlags) {
    file->pMethods = nullptr;  // SQLite calls no xClose on a failed open
    if (!name || !(flags & SQLITE_OPEN_MAIN_DB)) return SQLITE_CANTOPEN;
    const std::string_view n(name);
    if (n.substr(0, kDescriptorPrefix.size()) != kDescriptorPrefix) return SQLITE_CANTOPEN;
    int fd = -1;
    const std::string_view digits = n.substr(kDescriptorPrefix.size());
    const auto parsed = std::from_chars(digits.data(), digits.data() + digits.size(), fd);
    if (parsed.ec != std::errc() || parsed.ptr != digits.data() + digits.size() || fd < 0)
        return SQLITE_CANTOPEN;
    const int own = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (own < 0) return SQLITE_CANTOPEN;
    reinterpret_cast<DescriptorFile*>(file)->fd = own;
    file->pMethods = descriptorMethods();
    if (outFlags) *outFlags = SQLITE_OPEN_READONLY;
    return SQLITE_OK;
}

int vfsDelete(sqlite3_vfs*, const char*, int) {
    return SQLITE_IOERR_DELETE;
}
int vfsAccess(sqlite3_vfs*, const char*, int, int* result) {
    *result = 0;  // no journal, no WAL: the file is all there is
    return SQLITE_OK;
}
int vfsFullPathname(sqlite3_vfs*, const char* name, int size, char* out) {
    if (static_cast<int>(std::strlen(name)) >= size) return SQLITE_CANTOPEN;
    std::strcpy(out, name);
    return SQLITE_OK;
}

const char* descriptorVfs() {
    static const char* name = [] {
        const sqlite3_vfs* os = sqlite3_vfs_find(nullptr);
        static sqlite3_vfs vfs{};
        vfs.iVersion = 2;
        vfs.szOsFile = sizeof(DescriptorFile);
        vfs.mxPathname = 512;
        vfs.zName = "gapscope-descriptor";
        vfs.xOpen = &vfsOpen;
        vfs.xDelete = &vfsDelete;
        vfs.xAccess = &vfsAccess;
        vfs.xFullPathname = &vfsFullPathname;
        // What is not about files, from the system's own.
        vfs.xDlOpen = os->xDlOpen;
        vfs.xDlError = os->xDlError;
        vfs.xDlSym = os->xDlSym;
        vfs.xDlClose = os->xDlClose;
        vfs.xRandomness = os->xRandomness;
        vfs.xSleep = os->xSleep;
        vfs.xCurrentTime = os->xCurrentTime;
        vfs.xGetLastError = os->xGetLastError;
        vfs.xCurrentTimeInt64 = os->iVersion >= 2 ? os->xCurrentTimeInt64 : nullptr;
        vfs.pAppData = os->pAppData;
        sqlite3_vfs_register(&vfs, 0);
        return vfs.zName;
    }();
    return name;
}

Database openUri(const std::string& uri, const char* vfs, const CancelToken* cancel) {
    limitHeapOnce();
    sqlite3* db = nullptr;
    const int rc = sqlite3_open_v2(
        uri.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, vfs);
    if (rc != SQLITE_OK) {
        const std::string why = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
        if (db) sqlite3_close_v2(db);
        throw LoadError("open", "SQLite could not open it: " + why);
    }
    return Database(configure(db, cancel));
}

}  // namespace

Database Database::openFile(const std::string& path, const CancelToken* cancel) {
    return openUri(fileUri(path), nullptr, cancel);
}

Database Database::openDescriptor(int fd, const CancelToken* cancel) {
    return openUri(fileUri(std::string(kDescriptorPrefix) + std::to_string(fd)), descriptorVfs(),
                   cancel);
}

Database Database::openBytes(std::string_view bytes, const CancelToken* cancel) {
    limitHeapOnce();
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) !=
        SQLITE_OK) {
        if (db) sqlite3_close_v2(db);
        throw LoadError("open", "SQLite could not open an in-memory database");
    }
    Database out(configure(db, cancel));
    // Read-only: SQLite never writes to (or frees) the caller's bytes.
    auto* data = reinterpret_cast<unsigned char*>(const_cast<char*>(bytes.data()));
    const auto size = static_cast<sqlite3_int64>(bytes.size());
    if (sqlite3_deserialize(db, "main", data, size, size, SQLITE_DESERIALIZE_READONLY) != SQLITE_OK)
        throw LoadError("open", "SQLite could not read it: " + out.lastError());
    return out;
}

std::string Database::lastError() const {
    std::string why = sqlite3_errmsg(impl_->db);
    const int code = sqlite3_errcode(impl_->db) & 0xff;
    if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB)
        why += " (the file is damaged or cut short)";
    if (code == SQLITE_NOMEM) why += " (SQLite's memory limit for an export)";
    return why;
}

void Database::fail(const std::string& table, const std::string& what) const {
    if (impl_->cancel && impl_->cancel->isCancelled()) throw LoadCancelled();
    throw LoadError(table, what);
}

bool Database::hasTable(std::string_view table) const {
    impl_->readSchema(*this);
    if (const auto bad = impl_->refused.find(table); bad != impl_->refused.end())
        fail(std::string(table),
             "is " + bad->second + ", not a table (an export holds only tables): refused");
    return impl_->tables.find(table) != impl_->tables.end();
}

const std::vector<std::string>& Database::columns(std::string_view table) const {
    static const std::vector<std::string> none;
    if (!hasTable(table)) return none;
    const auto it = impl_->tables.find(table);
    return impl_->columnsOf(*this, it->first, it->second);
}

bool Database::hasColumn(std::string_view table, std::string_view column) const {
    for (const std::string& c : columns(table))
        if (c == column) return true;
    return false;
}

Rows Database::select(std::string_view table, const std::vector<std::string>& columns) const {
    return prepare(table, columns, "");
}

Rows Database::selectWhere(std::string_view table, const std::vector<std::string>& columns,
                           std::string_view key, int64_t value) const {
    if (key != "rowid" && !hasColumn(table, key))
        fail(std::string(table), "no column \"" + std::string(key) + "\"");
    Rows rows =
        prepare(table, columns, " WHERE " + (key == "rowid" ? "rowid" : quoted(key)) + " = ?1");
    if (sqlite3_bind_int64(rows.stmt_, 1, value) != SQLITE_OK)
        fail(std::string(table), lastError());
    return rows;
}

bool Database::hasRowids(std::string_view table) const {
    if (!hasTable(table)) return false;
    // A column of that name, hidden or generated ones included, would be
    // read instead of the row's number.
    sqlite3_stmt* info = nullptr;
    const std::string pragma = "PRAGMA table_xinfo(" + quoted(table) + ")";
    if (sqlite3_prepare_v2(impl_->db, pragma.c_str(), -1, &info, nullptr) != SQLITE_OK)
        fail(std::string(table), lastError());
    Rows rows(*this, info, std::string(table));
    while (rows.next()) {
        std::string lower;
        for (const char ch : rows.text(1))
            lower += static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch + 32 : ch);
        if (lower == "rowid" || lower == "_rowid_" || lower == "oid") return false;
    }
    // A WITHOUT ROWID table has none.
    const std::string sql = "SELECT rowid FROM " + quoted(table) + " LIMIT 0";
    sqlite3_stmt* st = nullptr;
    const bool ok = sqlite3_prepare_v2(impl_->db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK;
    sqlite3_finalize(st);
    return ok;
}

Rows Database::prepare(std::string_view table, const std::vector<std::string>& columns,
                       std::string_view where) const {
    const std::string name(table);
    if (!hasTable(table)) fail(name, "no such table");
    std::string sql = "SELECT ";
    for (size_t i = 0; i < columns.size(); ++i) {
        if (i) sql += ", ";
        if (columns[i].empty() || columns[i] == "rowid") {
            sql += columns[i].empty() ? "NULL" : "rowid";  // (the caller checked hasRowids)
            continue;
        }
        if (!hasColumn(table, columns[i]))
            fail(name, "no column \"" + columns[i] +
                           "\" (this release of the export is not "
                           "understood)");
        sql += quoted(columns[i]);
    }
    sql += " FROM " + quoted(table);
    sql += where;
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(impl_->db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
        fail(name, lastError());
    return Rows(*this, st, name);
}

uint64_t Database::rowCount(std::string_view table) const {
    if (!hasTable(table)) return 0;
    const std::string sql = "SELECT count(*) FROM " + quoted(table);
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(impl_->db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
        fail(std::string(table), lastError());
    Rows rows(*this, st, std::string(table));
    return rows.next() ? static_cast<uint64_t>(std::max<int64_t>(0, rows.integer(0))) : 0;
}

Rows::Rows(const Database& db, sqlite3_stmt* stmt, std::string table)
    : db_(&db), stmt_(stmt), table_(std::move(table)) {}

Rows::Rows(Rows&& o) noexcept : db_(o.db_), stmt_(o.stmt_), table_(std::move(o.table_)) {
    o.stmt_ = nullptr;
}

Rows::~Rows() {
    if (stmt_) sqlite3_finalize(stmt_);
}

bool Rows::next() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    db_->fail(table_, db_->lastError());
}

bool Rows::isInteger(int column) const {
    return sqlite3_column_type(stmt_, column) == SQLITE_INTEGER;
}

bool Rows::isNull(int column) const {
    return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

int64_t Rows::integer(int column) const {
    return sqlite3_column_int64(stmt_, column);
}

std::optional<int64_t> Rows::optionalInteger(int column) const {
    if (isNull(column)) return std::nullopt;
    return sqlite3_column_int64(stmt_, column);
}

std::string_view Rows::text(int column) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
    if (!p) return {};
    return {p, static_cast<size_t>(sqlite3_column_bytes(stmt_, column))};
}

}  // namespace gapscope::sqlite
