#include "loader/profile_folder.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>

#include "io/profile_files.h"

namespace gapscope {

namespace {

namespace fs = std::filesystem;

constexpr int kMaxDepth = 4;
constexpr uint64_t kMaxEntries = 200'000;

int64_t mtimeNs(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return 0;
    return st.st_mtim.tv_sec * 1'000'000'000LL + st.st_mtim.tv_nsec;
}

// "train/plugins/profile/2024_x" -> "train/2024_x".
std::string runName(const fs::path& relative) {
    std::vector<std::string> parts;
    for (const fs::path& part : relative)
        parts.push_back(part.string());
    for (size_t i = 0; i + 1 < parts.size(); ++i) {
        if (parts[i] == "plugins" && parts[i + 1] == "profile") {
            parts.erase(parts.begin() + static_cast<std::ptrdiff_t>(i),
                        parts.begin() + static_cast<std::ptrdiff_t>(i) + 2);
            break;
        }
    }
    std::string name;
    for (const std::string& p : parts) {
        if (!name.empty()) name += '/';
        name += p;
    }
    return name;
}

ProfileRun makeRun(std::string name, const std::string& folder, std::vector<std::string> files) {
    ProfileRun run{std::move(name), folder, std::move(files), 0};
    for (const std::string& f : run.files)
        run.newestMtimeNs = std::max(run.newestMtimeNs, mtimeNs(f));
    return run;
}

}  // namespace

ProfileRuns findProfileRuns(const std::string& given) {
    ProfileRuns out;
    std::error_code ec;
    if (!fs::is_directory(given, ec)) {
        out.error = ec ? ec.message() : "not a folder";
        return out;
    }
    // "run/" is "run": its sidecar is "run.gapscope.json" beside it.
    std::string folder = given;
    while (folder.size() > 1 && folder.back() == '/')
        folder.pop_back();
    if (auto files = xspaceFilesIn(folder); !files.empty()) {
        // ".", "..": the folder's own name.
        std::string name = fs::path(folder).filename().string();
        if (name.empty() || name == "." || name == "..") {
            fs::path whole = fs::absolute(folder, ec).lexically_normal();
            if (whole.filename().empty()) whole = whole.parent_path();  // "/a/b/" -> "/a/b"
            name = whole.filename().string();
        }
        out.runs.push_back(makeRun(name.empty() ? folder : name, folder, std::move(files)));
        return out;
    }
    uint64_t entries = 0;
    fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec),
        end;
    if (ec) {
        out.error = ec.message();
        return out;
    }
    for (; !ec && it != end; it.increment(ec)) {
        if (++entries > kMaxEntries) {
            out.runs.clear();
            out.error = "more than " + std::to_string(kMaxEntries) +
                        " files and folders below it; open a TensorBoard log folder or a run's "
                        "folder instead";
            return out;
        }
        std::error_code typeError;
        if (!it->is_directory(typeError) || it->is_symlink(typeError)) {
            if (it->is_symlink(typeError)) it.disable_recursion_pending();
            continue;
        }
        if (it.depth() + 1 >= kMaxDepth) it.disable_recursion_pending();
        std::vector<std::string> files = xspaceFilesIn(it->path().string());
        if (files.empty()) continue;
        out.runs.push_back(makeRun(runName(it->path().lexically_relative(folder)),
                                   it->path().string(), std::move(files)));
    }
    if (out.runs.empty()) {
        out.error = "no *.xplane.pb profile in it or in the " + std::to_string(kMaxDepth) +
                    " levels of folders below it (TensorBoard writes them to "
                    "LOGDIR/plugins/profile/RUN/HOST.xplane.pb)";
        return out;
    }
    std::sort(out.runs.begin(), out.runs.end(), [](const ProfileRun& a, const ProfileRun& b) {
        if (a.newestMtimeNs != b.newestMtimeNs) return a.newestMtimeNs > b.newestMtimeNs;
        return a.name < b.name;
    });
    return out;
}

const ProfileRun* chooseRun(const ProfileRuns& runs, const std::string& name, std::string& error) {
    if (runs.runs.empty()) {
        error = runs.error.empty() ? "no profile runs" : runs.error;
        return nullptr;
    }
    if (name.empty()) return &runs.runs.front();
    for (const ProfileRun& r : runs.runs)
        if (r.name == name) return &r;
    const ProfileRun* match = nullptr;
    for (const ProfileRun& r : runs.runs) {
        const size_t slash = r.name.rfind('/');
        if (slash != std::string::npos && r.name.substr(slash + 1) == name) {
            if (match) {
                error.assign(1, '"').append(name).append("\" names more than one run (");
                error.append(match->name)
                    .append(", ")
                    .append(r.name)
                    .append("); give the whole name");
                return nullptr;
            }
            match = &r;
        }
    }
    if (match) return match;
    error.assign("no run \"").append(name).append("\"; the runs are:");
    for (const ProfileRun& r : runs.runs)
        error += " " + r.name;
    return nullptr;
}

}  // namespace gapscope
