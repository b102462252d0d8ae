// libFuzzer target for profile folders (loader/profile_folder.h): a
// TensorBoard log folder as people open it, with runs at any depth, links,
// loops and files that are not what their names say. The input is a
// folder written as entries, each `PATH\n` then the file's bytes, entries
// separated by "\n%%\n"; a PATH that starts with '@' is a symbolic link to
// the (relative) target its bytes name, one that ends with '/' a folder.
// The first line (before the first entry) names the run to open ("" for
// the newest). The folder is opened as `gapscope-cli --run NAME FOLDER`
// and the viewer open it (loadTrace), and what loads is queried.

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include "exercise.h"
#include "io/profile_files.h"
#include "loader/loader.h"
#include "loader/profile_folder.h"
#include "scratch_folder.h"

namespace {

using namespace gapscope;
namespace fs = std::filesystem;

constexpr std::string_view kSeparator = "\n%%\n";
constexpr size_t kMaxEntries = 64;

// A path inside the scratch folder: parts of [A-Za-z0-9._-], no "." or "..",
// at most eight deep (deeper than the four levels the search looks at).
std::string safeRelative(std::string_view path) {
    std::string out;
    int depth = 0;
    size_t start = 0;
    while (start <= path.size() && depth < 8) {
        const size_t slash = std::min(path.find('/', start), path.size());
        std::string part;
        for (const char c : path.substr(start, slash - start))
            if (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-')
                part += c;
        if (!part.empty() && part != "." && part != "..") {
            if (!out.empty()) out += '/';
            out += part;
            ++depth;
        }
        start = slash + 1;
    }
    return out;
}

void writeFile(const fs::path& path, std::string_view bytes) {
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return;  // e.g. a folder of that name exists
    if (!bytes.empty()) std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
}

void makeEntry(const fs::path& root, std::string_view entry) {
    const size_t newline = entry.find('\n');
    std::string_view path = entry.substr(0, newline);
    const std::string_view bytes =
        newline == std::string_view::npos ? std::string_view() : entry.substr(newline + 1);
    const bool link = path.starts_with('@');
    const bool folder = path.ends_with('/');
    if (link) path.remove_prefix(1);
    const std::string relative = safeRelative(path);
    if (relative.empty()) return;
    const fs::path where = root / relative;
    std::error_code ec;
    fs::create_directories(where.parent_path(), ec);
    if (folder) {
        fs::create_directories(where, ec);
    } else if (link) {
        // Relative targets that stay inside the log folder ("..", "../x",
        // "."): loops and links to folders, not the rest of the machine.
        std::string target(bytes.substr(0, 256));
        target.erase(std::remove(target.begin(), target.end(), '\0'), target.end());
        const fs::path resolved = (where.parent_path() / target).lexically_normal();
        const std::string inside = resolved.lexically_relative(root).string();
        if (target.empty() || target.starts_with('/') || inside.empty() ||
            inside.starts_with("..")) {
            // Not `target = "."`: GCC 12 at -O3 reads that as an overlapping
            // memcpy (-Wrestrict, a false positive).
            target.clear();
            target.push_back('.');
        }
        fs::create_symlink(target, where, ec);
    } else {
        writeFile(where, bytes);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const fuzz::ScratchFolder scratch("profile-folder");
    scratch.empty();
    std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const size_t first = bytes.find(kSeparator);
    const std::string run(bytes.substr(0, std::min(first, size_t{128})));
    const fs::path root = fs::path(scratch.path()) / "logdir";
    fs::create_directory(root);
    bytes.remove_prefix(first == std::string_view::npos ? size : first + kSeparator.size());
    for (size_t n = 0; !bytes.empty() && n < kMaxEntries; ++n) {
        const size_t end = bytes.find(kSeparator);
        makeEntry(root, bytes.substr(0, end));
        bytes.remove_prefix(end == std::string_view::npos ? bytes.size() : end + kSeparator.size());
    }

    // What the run chooser lists: runs of XSpace files in real folders,
    // newest first, each named uniquely.
    const ProfileRuns runs = findProfileRuns(root.string());
    if (runs.runs.empty() == runs.error.empty()) std::abort();
    for (size_t i = 0; i < runs.runs.size(); ++i) {
        const ProfileRun& r = runs.runs[i];
        if (r.files.empty() || r.name.empty()) std::abort();
        for (const std::string& f : r.files)
            if (!isXSpaceFileName(fs::path(f).filename().string())) std::abort();
        if (i && runs.runs[i - 1].newestMtimeNs < r.newestMtimeNs) std::abort();
        for (size_t j = 0; j < i; ++j)
            if (runs.runs[j].name == r.name) std::abort();
    }

    LoadOptions options;
    options.memoryLimitBytes = 256u << 20;  // inside libFuzzer's -rss_limit_mb
    options.run = run;
    const LoadResult loaded = loadTrace(root.string(), options);
    if (loaded.trace) {
        fuzz::exercise(*loaded.trace);
        if (runs.runs.empty()) std::abort();  // a folder with no run loads nothing
    } else if (!loaded.failure) {
        std::abort();  // nothing loaded, and no reason given
    }
    return 0;
}
