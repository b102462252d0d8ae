#pragma once
// A read-only SQLite database as a hostile file: opened immutable (no locks,
// no journal, nothing written), with limits on what it may make SQLite
// allocate, a progress handler that polls for cancel, and only tables read
// (a view or a trigger in the file never runs). Every failure is a LoadError
// that names the table and, where there is one, the column.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/cancel_token.h"

struct sqlite3;
struct sqlite3_stmt;

namespace gapscope::sqlite {

// The first 16 bytes of every SQLite 3 database.
inline constexpr std::string_view kHeader{"SQLite format 3\0", 16};

class Database;

// One SELECT over one table, stepped row by row.
class Rows {
  public:
    Rows(Rows&&) noexcept;
    ~Rows();
    bool next();  // false at the end; throws LoadError on a corrupt page
    bool isNull(int column) const;
    bool isInteger(int column) const;   // stored as an integer (not NULL, text or real)
    int64_t integer(int column) const;  // 0 for NULL
    std::optional<int64_t> optionalInteger(int column) const;
    std::string_view text(int column) const;  // valid until next()

  private:
    friend class Database;
    Rows(const Database& db, sqlite3_stmt* stmt, std::string table);
    const Database* db_;
    sqlite3_stmt* stmt_;
    std::string table_;
};

class Database {
  public:
    // A database file on disk, by path.
    static Database openFile(const std::string& path, const CancelToken* cancel);
    // The file an open descriptor reads, whatever became of its path
    // (renamed, deleted, replaced) or if it never had one (a memfd).
    static Database openDescriptor(int fd, const CancelToken* cancel);
    // A database held in memory (a decompressed export, the fuzzer's input);
    // `bytes` must outlive the Database.
    static Database openBytes(std::string_view bytes, const CancelToken* cancel);
    Database(Database&&) noexcept;
    ~Database();

    // The columns of a table ("" when there is no such table; a view or
    // anything else of that name counts as none).
    bool hasTable(std::string_view table) const;
    const std::vector<std::string>& columns(std::string_view table) const;
    bool hasColumn(std::string_view table, std::string_view column) const;

    // SELECT `columns` FROM `table`: every column must exist (else a
    // LoadError naming the table and the column); an empty entry selects
    // NULL (an optional column this release lacks).
    Rows select(std::string_view table, const std::vector<std::string>& columns) const;
    // The same for the rows whose `key` column ("rowid": the row's own
    // number) holds `value`.
    Rows selectWhere(std::string_view table, const std::vector<std::string>& columns,
                     std::string_view key, int64_t value) const;
    // Whether the table's rows have rowids that name them (not a WITHOUT
    // ROWID table, and no column shadows the name).
    bool hasRowids(std::string_view table) const;
    uint64_t rowCount(std::string_view table) const;  // 0 when there is no such table

    [[noreturn]] void fail(const std::string& table, const std::string& what) const;
    std::string lastError() const;

    struct Impl;  // (opaque; public only for the file that opens databases)
    explicit Database(std::unique_ptr<Impl> impl);

  private:
    Rows prepare(std::string_view table, const std::vector<std::string>& columns,
                 std::string_view where) const;
    std::unique_ptr<Impl> impl_;
};

}  // namespace gapscope::sqlite
