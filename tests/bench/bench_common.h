#pragma once
// Small helpers shared by the parts of gapscope-bench.

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <string>
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
