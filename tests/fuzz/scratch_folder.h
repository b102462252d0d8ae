#pragma once
// A private folder for the fuzz targets that must hand the code under test
// a path (sidecars, cache entries, profile folders): made once per process
// under $TMPDIR (tmpfs in practice), emptied on demand, removed at exit.

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace gapscope::fuzz {

class ScratchFolder {
  public:
    explicit ScratchFolder(const char* what) {
        const char* tmp = std::getenv("TMPDIR");
        std::string pattern =
            std::string(tmp && *tmp ? tmp : "/tmp") + "/gapscope-fuzz-" + what + "-XXXXXX";
        if (!::mkdtemp(pattern.data())) std::abort();
        path_ = pattern;
    }
    ~ScratchFolder() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;

    const std::string& path() const { return path_; }
    // Everything inside it removed, the folder itself kept.
    void empty() const {
        std::error_code ec;
        for (const auto& e : std::filesystem::directory_iterator(path_, ec))
            std::filesystem::remove_all(e.path(), ec);
    }

  private:
    std::string path_;
};

}  // namespace gapscope::fuzz
