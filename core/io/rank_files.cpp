#include "io/rank_files.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <map>
#include <system_error>

#include "io/profile_files.h"

namespace gapscope {

namespace {

bool endsWith(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

char lower(char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

bool isLetter(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) != 0;
}

// `word` at `at` in `name`, ignoring case.
bool wordAt(std::string_view name, size_t at, std::string_view word) {
    if (at + word.size() > name.size()) return false;
    for (size_t i = 0; i < word.size(); ++i)
        if (lower(name[at + i]) != word[i]) return false;
    return true;
}

}  // namespace

bool isTraceFileName(std::string_view name) {
    if (isXSpaceFileName(name)) return true;
    std::string low(name);
    std::transform(low.begin(), low.end(), low.begin(), lower);
    if (endsWith(low, ".gapscope.json") || endsWith(low, ".fleet.json")) return false;
    constexpr std::array<std::string_view, 4> kSuffixes = {".json", ".json.gz", ".json.zst",
                                                           ".json.zstd"};
    for (const std::string_view s : kSuffixes)
        if (low.size() > s.size() && endsWith(low, s)) return true;
    return false;
}

std::optional<int64_t> rankOfFileName(std::string_view name) {
    constexpr std::array<std::string_view, 2> kWords = {"worker", "rank"};
    for (size_t at = 0; at < name.size(); ++at) {
        if (at > 0 && isLetter(name[at - 1])) continue;
        for (const std::string_view word : kWords) {
            if (!wordAt(name, at, word)) continue;
            size_t i = at + word.size();
            if (i < name.size() && (name[i] == '-' || name[i] == '_')) ++i;
            size_t digits = 0;
            int64_t value = 0;
            while (i + digits < name.size() && isDigit(name[i + digits]) && digits < 9) {
                value = value * 10 + (name[i + digits] - '0');
                ++digits;
            }
            if (digits == 0 || (i + digits < name.size() && isDigit(name[i + digits]))) continue;
            return value;
        }
    }
    return std::nullopt;
}

std::string hostOfFileName(std::string_view name) {
    return isXSpaceFileName(name) ? hostOfXSpaceFile(name) : std::string();
}

bool naturalLess(std::string_view a, std::string_view b) {
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (isDigit(a[i]) && isDigit(b[j])) {
            size_t ie = i, je = j;
            while (ie < a.size() && isDigit(a[ie]))
                ++ie;
            while (je < b.size() && isDigit(b[je]))
                ++je;
            // Compare by value: strip leading zeros, then length, then digits.
            size_t is = i, js = j;
            while (is + 1 < ie && a[is] == '0')
                ++is;
            while (js + 1 < je && b[js] == '0')
                ++js;
            if (ie - is != je - js) return ie - is < je - js;
            const int c = a.substr(is, ie - is).compare(b.substr(js, je - js));
            if (c != 0) return c < 0;
            i = ie;
            j = je;
            continue;
        }
        if (a[i] != b[j]) return a[i] < b[j];
        ++i;
        ++j;
    }
    if (a.size() - i != b.size() - j) return a.size() - i < b.size() - j;
    return a < b;
}

std::vector<std::string> traceFilesIn(const std::string& dir, std::string& error) {
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    std::error_code ec;
    fs::directory_iterator it(dir, ec), end;
    if (ec) {
        error = ec.message();
        return files;
    }
    for (; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        std::error_code typeError;
        if (isTraceFileName(name) && it->is_regular_file(typeError))
            files.push_back(it->path().string());
    }
    if (ec) error = ec.message();
    std::sort(files.begin(), files.end(), [](const std::string& a, const std::string& b) {
        return naturalLess(fs::path(a).filename().string(), fs::path(b).filename().string());
    });
    return files;
}

namespace {

// "host_42.1700000000123.pt.trace.json.gz" -> {"host_42", 1700000000123}.
std::optional<std::pair<std::string, uint64_t>> workerAndTime(std::string_view name) {
    for (const std::string_view ext : {".gz", ".zst", ".zstd"})
        if (name.ends_with(ext)) name.remove_suffix(ext.size());
    constexpr std::string_view kTrace = ".pt.trace.json";
    if (!name.ends_with(kTrace)) return std::nullopt;
    name.remove_suffix(kTrace.size());
    const size_t dot = name.rfind('.');
    if (dot == std::string_view::npos || dot == 0) return std::nullopt;
    const std::string_view ms = name.substr(dot + 1);
    if (ms.empty() || ms.size() > 19) return std::nullopt;
    uint64_t value = 0;
    for (const char c : ms) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + static_cast<uint64_t>(c - '0');
    }
    return std::pair{std::string(name.substr(0, dot)), value};
}

}  // namespace

std::vector<std::vector<std::string>> profilerCyclesOf(const std::vector<std::string>& files) {
    if (files.size() < 2) return {};
    // Per WORKER (in natural order), its files by the time they were written.
    std::map<std::string, std::vector<std::pair<uint64_t, std::string>>,
             bool (*)(std::string_view, std::string_view)>
        workers(naturalLess);
    for (const std::string& f : files) {
        const size_t slash = f.find_last_of('/');
        const auto parsed =
            workerAndTime(std::string_view(f).substr(slash == std::string::npos ? 0 : slash + 1));
        if (!parsed) return {};
        workers[parsed->first].push_back({parsed->second, f});
    }
    const size_t count = workers.begin()->second.size();
    if (count < 2) return {};  // one file per WORKER: ranks
    for (auto& [worker, written] : workers) {
        if (written.size() != count) return {};  // a WORKER missed a cycle: no telling which
        std::sort(written.begin(), written.end());
    }
    std::vector<std::vector<std::string>> cycles(count);
    for (auto& [worker, written] : workers)
        for (size_t c = 0; c < count; ++c)
            cycles[c].push_back(std::move(written[c].second));
    return cycles;
}

}  // namespace gapscope
