#pragma once
// Small helpers shared by the parts of gapscope-bench.

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace gapscope::bench {

using Clock = std::chrono::steady_clock;

inline double seconds(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

inline double msSince(Clock::time_point a) {
    return seconds(a, Clock::now()) * 1000;
}

// CPU time of the calling thread: wall time minus this is time the thread
// waited (for a core, a page, a lock).
inline double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

// Wall time of a shell command with its output discarded; -1 when it failed.
inline double timeCommand(const std::string& cmd) {
    const auto t0 = Clock::now();
    const int rc = std::system((cmd + " > /dev/null 2>&1").c_str());
    const auto t1 = Clock::now();
    return rc == 0 ? seconds(t0, t1) : -1;
}

// Runs `work` in a forked child, so that its peak RSS is its own: what it
// returned (a plain struct, sent back through a pipe) and that peak in KiB;
// nullopt when the child died.
template <class Figures, class Work>
std::optional<std::pair<Figures, long>> inChild(Work&& work) {
    static_assert(std::is_trivially_copyable_v<Figures>);
    int pipeFd[2];
    if (pipe(pipeFd) != 0) return std::nullopt;
    const pid_t pid = fork();
    if (pid == 0) {
        close(pipeFd[0]);
        const Figures f = work();
        _exit(write(pipeFd[1], &f, sizeof f) == sizeof f ? 0 : 1);
    }
    close(pipeFd[1]);
    Figures f{};
    const bool got = pid > 0 && read(pipeFd[0], &f, sizeof f) == sizeof f;
    close(pipeFd[0]);
    int status = 0;
    struct rusage usage {};
    if (pid > 0) wait4(pid, &status, 0, &usage);
    if (!got) return std::nullopt;
    return std::pair{f, usage.ru_maxrss};
}

inline std::string quote(const std::string& s) {
    return "'" + s + "'";
}

inline double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

inline double maximum(const std::vector<double>& v) {
    return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

}  // namespace gapscope::bench
