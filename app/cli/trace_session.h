#pragma once
// An opened trace kept for many questions (the Python module's Trace, the
// agent tools' open traces): its analysis index built once, on first use,
// and whole results remembered by scope and options; each question asked
// as `gapscope-cli ID` asks it, from the same command line.

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "analysis/analysis_index.h"
#include "analysis_command.h"
#include "report/result_memo.h"

namespace gapscope::cli {

class TraceSession {
  public:
    TraceSession(std::shared_ptr<const Trace> trace, std::string path, std::string cacheNote,
                 std::vector<std::string> notes);

    const Trace& trace() const { return *trace_; }
    const std::shared_ptr<const Trace>& shared() const { return trace_; }
    const std::string& path() const { return path_; }            // as it was opened
    const std::string& cacheNote() const { return cacheNote_; }  // what the index cache did
    const std::vector<std::string>& notes() const { return notes_; }
    const AnalysisIndex& index();  // thread-safe

    // The analysis over this trace as its command computes it with `line`
    // (--range, --step, --min-gap-us, its own options); none, with why
    // ("TRACE: no step 9 (steps 1..5)"), when it cannot be answered.
    // `cancel` stops it early (the result is then none, `error` empty).
    std::optional<AnalysisResult> compute(const Analysis& analysis, CommandLine& line,
                                          std::string& error, const CancelToken* cancel = nullptr);

  private:
    std::shared_ptr<const Trace> trace_;
    std::string path_, cacheNote_;
    std::vector<std::string> notes_;
    std::mutex mutex_;
    std::unique_ptr<AnalysisIndex> index_;
    ResultMemo memo_;
};

// A path as a command-line token: one that starts with '-' is no option.
inline std::string pathToken(const std::string& path) {
    return !path.empty() && path.front() == '-' ? "./" + path : path;
}

// A command line of `analysis` from these tokens (its options as
// gapscope-cli takes them, then the paths); none, with the usage error.
std::optional<CommandLine> commandLineOf(const Analysis& analysis, std::vector<std::string> tokens,
                                         std::string& error);

}  // namespace gapscope::cli
