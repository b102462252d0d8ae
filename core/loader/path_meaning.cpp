#include "loader/path_meaning.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "io/profile_files.h"
#include "io/rank_files.h"
#include "loader/profile_folder.h"
#include "loader/rank_set.h"
#include "loader/rank_view.h"
#include "loader/trace_parts.h"

namespace gapscope {

namespace {

bool endsWithNoCase(std::string_view s, std::string_view suffix) {
    if (s.size() < suffix.size()) return false;
    for (size_t i = 0; i < suffix.size(); ++i) {
        const char a = s[s.size() - suffix.size() + i];
        const char lower = a >= 'A' && a <= 'Z' ? static_cast<char>(a - 'A' + 'a') : a;
        if (lower != suffix[i]) return false;
    }
    return true;
}

// Each file whole, or its parts when it holds several ranks' processes.
std::vector<RankSource> sourcesOf(const std::vector<std::string>& files) {
    std::vector<RankSource> sources;
    for (const std::string& f : files) {
        std::vector<TracePart> parts = tracePartsOf(f);
        if (parts.empty()) sources.push_back({f, {}});
        for (TracePart& p : parts)
            sources.push_back({f, std::move(p)});
    }
    return sources;
}

// One whole file a trace, else the ranks of `name` (the file itself when
// they are its processes).
void traceOrRanks(PathMeaning& m, const std::vector<std::string>& files, const std::string& name) {
    std::vector<RankSource> sources = sourcesOf(files);
    if (sources.size() == 1) {
        m.kind = PathMeaning::Kind::Trace;
        m.path = std::move(sources.front().file);
        return;
    }
    m.kind = PathMeaning::Kind::Ranks;
    m.path = files.size() == 1 ? files.front() : name;
    m.sources = std::move(sources);
}

// Several trace files: a cycle of them when they are profiler cycles.
void filesMeaning(PathMeaning& m, std::vector<std::string> files, const std::string& name,
                  const PathChoices& choices) {
    m.cycles = profilerCyclesOf(files);
    if (m.cycles.empty()) return traceOrRanks(m, files, name);
    m.cycle = choices.cycle < m.cycles.size() ? choices.cycle : m.cycles.size() - 1;
    const std::vector<std::string>& chosen = m.cycles[m.cycle];
    traceOrRanks(m, chosen, chosen.size() > 1 ? commonFolder(chosen) : name);
}

void folderMeaning(PathMeaning& m, const std::string& folder, const PathChoices& choices) {
    // Per-rank traces (not XSpace) in the folder: the ranks of one job. A
    // folder holding XSpace files is a profile run, whatever JSON lies
    // beside them (JAX's perfetto_trace.json.gz, TensorFlow's
    // HOST.trace.json.gz and HOST.memory_profile.json.gz).
    std::string error;
    std::vector<std::string> traces;
    if (xspaceFilesIn(folder).empty())
        for (std::string& f : traceFilesIn(folder, error))
            if (!isXSpaceFileName(std::filesystem::path(f).filename().string()))
                traces.push_back(std::move(f));
    if (!traces.empty()) return filesMeaning(m, std::move(traces), folder, choices);
    // Else a folder of profile runs: the run chosen, its hosts the ranks.
    const ProfileRuns runs = findProfileRuns(folder);
    for (const ProfileRun& r : runs.runs)
        m.runs.push_back(r.name);
    const ProfileRun* run = chooseRun(runs, choices.run, error);
    if (!run) {
        m.error = folder + ": " + error;
        return;
    }
    m.run = run->name;
    const std::vector<std::string> hosts = xspaceFilesIn(run->folder);
    if (hosts.size() > 1) {
        m.kind = PathMeaning::Kind::Ranks;
        m.sources = wholeFiles(hosts);
        m.path = run->folder;
    } else {
        m.kind = PathMeaning::Kind::Trace;
        m.path = run->folder;
    }
}

}  // namespace

bool PathMeaning::processesOfOneFile() const {
    return kind == Kind::Ranks && !sources.empty() && !sources.front().part.whole() &&
           std::all_of(sources.begin(), sources.end(),
                       [&](const RankSource& s) { return s.file == sources.front().file; });
}

PathMeaning meaningOfPaths(const std::vector<std::string>& paths, const PathChoices& choices) {
    PathMeaning m;
    if (paths.empty()) {
        m.error = "nothing to open";
        return m;
    }
    if (paths.size() == 1) {
        const std::string& path = paths.front();
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec)) {
            folderMeaning(m, path, choices);
        } else if (endsWithNoCase(path, ".fleet.json")) {
            m.kind = PathMeaning::Kind::FleetTable;
            m.path = path;
        } else {
            // A missing file is a trace that fails to load, with the reason.
            traceOrRanks(m, {path}, path);
        }
        return m;
    }
    const RankFileList list = rankFilesOf(paths, choices.run);
    if (!list.error.empty()) {
        m.error = list.error;
        return m;
    }
    m.run = list.run;
    filesMeaning(m, list.files, commonFolder(list.files), choices);
    return m;
}

}  // namespace gapscope
