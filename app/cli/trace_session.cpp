#include "trace_session.h"

#include <sstream>

namespace gapscope::cli {

TraceSession::TraceSession(std::shared_ptr<const Trace> trace, std::string path,
                           std::string cacheNote, std::vector<std::string> notes)
    : trace_(std::move(trace)),
      path_(std::move(path)),
      cacheNote_(std::move(cacheNote)),
      notes_(std::move(notes)) {}

const AnalysisIndex& TraceSession::index() {
    const std::lock_guard lock(mutex_);
    if (!index_) index_ = std::make_unique<AnalysisIndex>(*trace_);
    return *index_;
}

std::optional<AnalysisResult> TraceSession::compute(const Analysis& a, CommandLine& line,
                                                    std::string& error, const CancelToken* cancel) {
    error = stepWindowError(line.args, *trace_);
    if (!error.empty()) return std::nullopt;
    Scope scope = scopeOf(line.args, cacheNote_);
    scope.index = &index();
    scope.memo = &memo_;
    scope.cancel = cancel;
    try {
        AnalysisResult result = computeAnalysis(a, *trace_, scope, line.options);
        if (cancel && cancel->isCancelled()) return std::nullopt;
        return result;
    } catch (const std::exception& e) {  // a registration's mistake (tst_registry checks them)
        error = path_ + ": " + e.what();
        return std::nullopt;
    }
}

std::optional<CommandLine> commandLineOf(const Analysis& a, std::vector<std::string> tokens,
                                         std::string& error) {
    std::vector<char*> argv;
    for (std::string& t : tokens)
        argv.push_back(t.data());
    std::ostringstream err;
    int status = 1;
    std::optional<CommandLine> line =
        parseCommandLine(a, static_cast<int>(argv.size()), argv.data(), status, err);
    if (!line) {
        error = err.str();
        while (!error.empty() && error.back() == '\n')
            error.pop_back();
        if (error.empty()) error = "gapscope-cli " + a.id + ": not an option";
    }
    return line;
}

}  // namespace gapscope::cli
