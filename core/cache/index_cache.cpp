#include "cache/index_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <new>
#include <set>

#include "cache/cache_io.h"
#include "cache/trace_codec.h"
#include "format/args_decoder.h"
#include "format/input_format.h"
#include "model/trace_schema.h"
#include "util/fast_hash.h"
#include "util/unique_fd.h"

namespace gapscope {
namespace {

namespace fs = std::filesystem;

constexpr char kMagic[8] = {'G', 'S', 'I', 'N', 'D', 'E', 'X', '\n'};
constexpr const char* kSuffix = ".gsidx";
// What a job's key starts with, so that it is never a part's.
const std::string kMergedKey = "ranks of a job\n";
// A key (a path, or a job's files) is read whole before it is compared.
constexpr uint64_t kMaxKeyBytes = uint64_t{16} << 20;

// Every POD array is stored in its in-memory layout: a build where any of
// them differs must not read another build's entries.
// Each field the schema lists for the records written field by field: its
// name, size and what it refers to, in order.
template <class Record>
void signFields(uint32_t& h) {
    const Record r{};
    schema::fields(r, [&h](const char* name, const auto& field, schema::Ref ref) {
        for (const char* c = name; *c; ++c)
            h = (h ^ static_cast<uint8_t>(*c)) * 16777619u;
        h = (h ^ static_cast<uint32_t>(sizeof(field))) * 16777619u;
        h = (h ^ static_cast<uint32_t>(ref)) * 16777619u;
    });
}

// What the stored layout depends on: the sizes of the arrays written whole
// and the schema's fields, so that an entry of another layout is a miss
// even under the same version.
uint32_t layoutSignature() {
    static const uint32_t signature = [] {
        uint32_t h = 2166136261u;
        for (size_t s : {sizeof(Slice), sizeof(Instant), sizeof(Flow), sizeof(ArgsRecord),
                         sizeof(ArgIds), sizeof(LaunchParams), sizeof(Row), sizeof(Interval),
                         sizeof(IdKey), alignof(int64_t), sizeof(void*)})
            h = (h ^ static_cast<uint32_t>(s)) * 16777619u;
        signFields<Trace>(h);
        signFields<Process>(h);
        signFields<Track>(h);
        signFields<CounterSeries>(h);
        signFields<GpuDevice>(h);
        signFields<ImportReport>(h);
        return h;
    }();
    return signature;
}

struct Header {
    char magic[8];
    uint32_t formatVersion;
    uint32_t layout;
    char appVersion[16];
    uint64_t pathHash;
    uint64_t size;
    int64_t mtimeNs;
    uint64_t headTailHash;
    uint64_t pathBytes;  // the absolute trace path follows the header
    uint64_t bodyBytes;  // then the body
    uint64_t bodyHash;
};

std::string absolutePath(const std::string& path) {
    if (char* real = ::realpath(path.c_str(), nullptr)) {
        std::string out(real);
        std::free(real);
        return out;
    }
    std::error_code ec;
    const fs::path abs = fs::absolute(path, ec);
    return ec ? path : abs.lexically_normal().string();
}

// What an entry is for: the trace's absolute path, and the part of it
// that was read when it was not the whole file.
std::string entryKey(const std::string& tracePath, const std::string& part) {
    std::string key = absolutePath(tracePath);
    if (!part.empty()) key += "\n" + part;
    return key;
}

void fillVersion(char (&out)[16]) {
    std::memset(out, 0, sizeof out);
    std::strncpy(out, GAPSCOPE_VERSION, sizeof out - 1);
}

bool readExactly(int fd, void* dst, size_t n, uint64_t offset) {
    size_t got = 0;
    while (got < n) {
        const ssize_t r =
            ::pread(fd, static_cast<char*>(dst) + got, n - got, static_cast<off_t>(offset + got));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        got += static_cast<size_t>(r);
    }
    return true;
}

}  // namespace

const char* cacheOutcomeName(IndexCache::Outcome o) {
    switch (o) {
        case IndexCache::Outcome::Hit:
            return "hit";
        case IndexCache::Outcome::Miss:
            return "miss";
        case IndexCache::Outcome::Stale:
            return "stale";
        case IndexCache::Outcome::Corrupt:
            return "corrupt";
        case IndexCache::Outcome::OtherVersion:
            return "other version";
    }
    return "?";
}

IndexCache::IndexCache(std::string dir, uint64_t maxBytes, uint32_t formatVersion)
    : dir_(std::move(dir)), maxBytes_(maxBytes), formatVersion_(formatVersion) {}

std::string IndexCache::defaultDir() {
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/')
        return std::string(xdg) + "/gapscope";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/.cache/gapscope";
    return {};
}

std::string IndexCache::entryPath(const std::string& tracePath, const std::string& part) const {
    const std::string abs = entryKey(tracePath, part);
    char name[40];
    std::snprintf(name, sizeof name, "%016llx",
                  static_cast<unsigned long long>(fastHash(abs.data(), abs.size())));
    return dir_ + "/" + name + kSuffix;
}

// The entry `entry` for `key`, checked against `stampNow()` (taken only once
// the entry is known to be of this version): the model, with what the entry
// holds beside it in `extras`.
IndexCache::Lookup IndexCache::readEntry(const std::string& entry, const std::string& key,
                                         const std::function<FileStamp()>& stampNow,
                                         StoredExtras& extras) const {
    Lookup result;
    auto miss = [&](Outcome o, std::string why) {
        result.outcome = o;
        result.detail = std::move(why);
        return result;
    };
    if (dir_.empty()) return miss(Outcome::Miss, "no cache folder");
    const UniqueFd cacheFd(::open(entry.c_str(), O_RDONLY | O_CLOEXEC));
    if (!cacheFd.valid()) return miss(Outcome::Miss, "no entry");
    struct stat st {};
    Header h{};
    if (::fstat(cacheFd.get(), &st) != 0 || !readExactly(cacheFd.get(), &h, sizeof h, 0) ||
        std::memcmp(h.magic, kMagic, sizeof kMagic) != 0)
        return miss(Outcome::Corrupt, "not an index cache file");
    char version[16];
    fillVersion(version);
    if (h.formatVersion != formatVersion_ || h.layout != layoutSignature() ||
        std::memcmp(h.appVersion, version, sizeof version) != 0)
        return miss(Outcome::OtherVersion, "written by another version of Gapscope");

    const FileStamp stamp = stampNow();
    if (!stamp.valid) return miss(Outcome::Miss, "the trace cannot be opened");
    if (stamp.size != h.size || stamp.mtimeNs != h.mtimeNs || stamp.headTailHash != h.headTailHash)
        return miss(Outcome::Stale, "the trace changed since the entry was written");
    const uint64_t fileBytes = static_cast<uint64_t>(st.st_size);
    if (h.pathBytes > kMaxKeyBytes || sizeof h + h.pathBytes > fileBytes ||
        h.bodyBytes != fileBytes - sizeof h - h.pathBytes)
        return miss(Outcome::Corrupt, "the entry's size is wrong");
    std::string storedKey(static_cast<size_t>(h.pathBytes), '\0');
    if (!readExactly(cacheFd.get(), storedKey.data(), storedKey.size(), sizeof h))
        return miss(Outcome::Corrupt, "the entry ends early");
    if (storedKey != key) return miss(Outcome::Miss, "the entry is for another path or part");

    auto trace = std::make_shared<Trace>();
    try {
        if (::lseek(cacheFd.get(), static_cast<off_t>(sizeof h + h.pathBytes), SEEK_SET) < 0)
            throw CacheCorrupt("seek failed");
        ::posix_fadvise(cacheFd.get(), 0, 0, POSIX_FADV_SEQUENTIAL);
        CacheReader in(cacheFd.get(), h.bodyBytes);
        readTraceBody(in, *trace, extras);
        if (in.left() != 0) throw CacheCorrupt("trailing bytes");
        if (in.hash() != h.bodyHash) throw CacheCorrupt("checksum mismatch");
        validateTrace(*trace);
        indexRowBreaks(*trace);
    } catch (const CacheCorrupt& e) {
        return miss(Outcome::Corrupt, e.what());
    } catch (const std::bad_alloc&) {
        return miss(Outcome::Corrupt, "out of memory reading the entry");
    }
    trace->fileStamp = stamp;
    trace->fromCache = true;
    ::futimens(cacheFd.get(), nullptr);  // recently used: pruned last
    result.trace = std::move(trace);
    result.outcome = Outcome::Hit;
    return result;
}

IndexCache::Lookup IndexCache::load(const std::string& tracePath, const std::string& part) const {
    UniqueFd traceFd;
    bool folder = false;
    StoredExtras extras;
    Lookup result = readEntry(
        entryPath(tracePath, part), entryKey(tracePath, part),
        [&] {
            traceFd = UniqueFd(::open(tracePath.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
            if (!traceFd.valid()) return FileStamp{};
            struct stat st {};
            folder = ::fstat(traceFd.get(), &st) == 0 && S_ISDIR(st.st_mode);
            // A folder is a profile run: stamped by its XSpace files.
            return folder ? stampOfFolder(tracePath) : stampOfDescriptor(traceFd.get());
        },
        extras);
    if (!result.trace) return result;
    if (!result.trace->ranks.empty()) {
        result = {};
        result.outcome = Outcome::Corrupt;
        result.detail = "a merged trace's entry under a file's name";
        return result;
    }
    Trace& trace = *result.trace;
    trace.path = tracePath;
    if (!folder && trace.compression == Compression::None &&
        argsInFile(trace.inputFormat) != ArgsInFile::No) {
        // Args are read back from the trace file itself, as after a parse.
        const int flags = ::fcntl(traceFd.get(), F_GETFL);
        if (flags >= 0) ::fcntl(traceFd.get(), F_SETFL, flags & ~O_NONBLOCK);
        trace.argsStore.useFile(std::move(traceFd), trace.fileStamp.size, trace.fileStamp.mtimeNs,
                                makeArgsDecoder(trace.inputFormat));
    }
    return result;
}

std::string IndexCache::mergedEntryPath(const std::string& path, const std::string& key) const {
    return entryPath(path, kMergedKey + key);
}

IndexCache::Lookup IndexCache::loadMerged(const std::string& path, const std::string& key,
                                          const FileStamp& stamp,
                                          const std::vector<std::string>& files) const {
    StoredExtras extras;
    Lookup result = readEntry(
        mergedEntryPath(path, key), entryKey(path, kMergedKey + key), [&] { return stamp; },
        extras);
    if (!result.trace) return result;
    Trace& trace = *result.trace;
    auto fail = [&](Outcome o, std::string why) {
        result = {};
        result.outcome = o;
        result.detail = std::move(why);
        return result;
    };
    if (trace.ranks.empty()) return fail(Outcome::Corrupt, "a file's entry under a job's name");
    // Only the job's own files are ever opened (a crafted entry could name any).
    const std::set<std::string> jobFiles(files.begin(), files.end());
    for (const TraceRank& rank : trace.ranks)
        if (!jobFiles.count(rank.file))
            return fail(Outcome::Corrupt, "a rank's file is not the job's");
    trace.path = path;
    // Each rank's args that live in its file are read back from it, as
    // after its parse, while it is the file they were found in.
    for (const StoredExtras::PartFile& part : extras.partsInFile) {
        const TraceRank& rank = trace.ranks[part.rank];
        UniqueFd fd(::open(rank.file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
        struct stat st {};
        if (!fd.valid() || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
            return fail(Outcome::Stale, rank.file + " cannot be opened");
        if (static_cast<uint64_t>(st.st_size) != part.size ||
            int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec != part.mtimeNs)
            return fail(Outcome::Stale, rank.file + " changed since the entry was written");
        const int flags = ::fcntl(fd.get(), F_GETFL);
        if (flags >= 0) ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK);
        trace.argsStore.part(part.rank).useFile(std::move(fd), part.size, part.mtimeNs,
                                                makeArgsDecoder(rank.inputFormat));
    }
    result.attachment = std::move(extras.attachment);
    return result;
}

std::string IndexCache::store(const Trace& trace, const std::string& part) const {
    if (!trace.fileStamp.valid) return "the trace did not come from a file";
    // A job's merged ranks are stored by storeMerged, with their own key.
    if (!trace.ranks.empty()) return "ranks merged into one view are stored as a job";
    return writeEntry(trace, trace.path, part, trace.fileStamp, {});
}

std::string IndexCache::storeMerged(const Trace& merged, const std::string& key,
                                    const FileStamp& stamp, std::string_view attachment) const {
    if (merged.ranks.empty()) return "not ranks merged into one trace";
    if (!stamp.valid) return "the ranks' files could not be stamped";
    return writeEntry(merged, merged.path, kMergedKey + key, stamp, attachment);
}

std::string IndexCache::writeEntry(const Trace& trace, const std::string& path,
                                   const std::string& part, const FileStamp& stamp,
                                   std::string_view attachment) const {
    if (dir_.empty()) return "no cache folder (neither XDG_CACHE_HOME nor HOME is set)";
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec) return dir_ + ": " + ec.message();
    const std::string entry = entryPath(path, part);
    const std::string abs = entryKey(path, part);
    if (abs.size() > kMaxKeyBytes) return "the key is too long";
    std::string tmp = entry + ".XXXXXX";
    const UniqueFd fd(::mkostemp(tmp.data(), O_CLOEXEC));
    if (!fd.valid()) return dir_ + ": " + std::strerror(errno);
    try {
        Header h{};
        CacheWriter prefix(fd.get());
        prefix.bytes(&h, sizeof h);  // a placeholder, rewritten once the body is known
        prefix.bytes(abs.data(), abs.size());
        prefix.flush();
        CacheWriter body(fd.get());
        writeTraceBody(trace, body, attachment);
        body.flush();
        std::memcpy(h.magic, kMagic, sizeof kMagic);
        h.formatVersion = formatVersion_;
        h.layout = layoutSignature();
        fillVersion(h.appVersion);
        h.pathHash = fastHash(abs.data(), abs.size());
        h.size = stamp.size;
        h.mtimeNs = stamp.mtimeNs;
        h.headTailHash = stamp.headTailHash;
        h.pathBytes = abs.size();
        h.bodyBytes = body.written();
        h.bodyHash = body.hash();
        if (::pwrite(fd.get(), &h, sizeof h, 0) != static_cast<ssize_t>(sizeof h))
            throw std::runtime_error(std::strerror(errno));
    } catch (const std::exception& e) {
        ::unlink(tmp.c_str());
        return entry + ": " + e.what();
    }
    // No fsync: a torn entry after a crash fails its checksum and is rebuilt.
    if (::rename(tmp.c_str(), entry.c_str()) != 0) {
        const std::string why = std::strerror(errno);
        ::unlink(tmp.c_str());
        return entry + ": " + why;
    }
    prune(entry);
    return {};
}

void IndexCache::prune(const std::string& keep) const {
    struct Entry {
        fs::path path;
        uint64_t bytes;
        fs::file_time_type time;
    };
    std::vector<Entry> entries;
    uint64_t total = 0;
    std::error_code ec;
    const auto now = fs::file_time_type::clock::now();
    for (const auto& de : fs::directory_iterator(dir_, ec)) {
        const std::string name = de.path().filename().string();
        std::error_code e2;
        const auto time = de.last_write_time(e2);
        if (e2) continue;
        if (name.find(std::string(kSuffix) + ".") != std::string::npos) {
            // A temporary file left by a crashed writer.
            if (now - time > std::chrono::hours(1)) fs::remove(de.path(), e2);
            continue;
        }
        if (!name.ends_with(kSuffix)) continue;
        const uint64_t bytes = de.file_size(e2);
        if (e2) continue;
        entries.push_back({de.path(), bytes, time});
        total += bytes;
    }
    if (total <= maxBytes_) return;
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.time < b.time; });
    for (const Entry& e : entries) {
        if (total <= maxBytes_) break;
        if (e.path.string() == keep) continue;
        std::error_code e2;
        if (fs::remove(e.path, e2)) total -= e.bytes;
    }
}

}  // namespace gapscope
