#include "io/profile_files.h"

#include <algorithm>
#include <array>
#include <filesystem>

#include "io/rank_files.h"

namespace gapscope {

namespace {

constexpr std::array<std::string_view, 3> kSuffixes = {".xplane.pb", ".xplane.pb.gz",
                                                       ".xplane.pb.zst"};

size_t suffixLength(std::string_view name) {
    for (const std::string_view s : kSuffixes)
        if (name.size() > s.size() && name.substr(name.size() - s.size()) == s) return s.size();
    return 0;
}

}  // namespace

bool isXSpaceFileName(std::string_view fileName) {
    return suffixLength(fileName) > 0;
}

std::string hostOfXSpaceFile(std::string_view fileName) {
    return std::string(fileName.substr(0, fileName.size() - suffixLength(fileName)));
}

std::vector<std::string> xspaceFilesIn(const std::string& dir) {
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    std::error_code ec;
    fs::directory_iterator it(dir, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        std::error_code typeError;
        if (isXSpaceFileName(name) && it->is_regular_file(typeError))
            files.push_back(it->path().string());
    }
    // Hosts in natural order: 10.0.0.2 before 10.0.0.10, worker2 before worker10.
    std::sort(files.begin(), files.end(), naturalLess);
    return files;
}

}  // namespace gapscope
