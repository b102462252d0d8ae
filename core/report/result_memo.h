#pragma once
// The results of registered analyses over one trace, remembered by scope
// and options, so that the views of one scope (the Overview and the
// panels, a comparison's figures) compute each analysis once. Bounded: the
// least recently used go first. Safe to use from several threads; two that
// ask for the same result at once may both compute it.

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>

#include "report/analysis_registry.h"

namespace gapscope {

class ResultMemo {
  public:
    explicit ResultMemo(size_t capacity = 48) : capacity_(capacity) {}

    // The result remembered under `key`, or null.
    std::shared_ptr<const AnalysisResult> find(const std::string& key);
    void remember(const std::string& key, std::shared_ptr<const AnalysisResult> result);
    size_t size() const;

  private:
    using Entry = std::pair<std::string, std::shared_ptr<const AnalysisResult>>;
    mutable std::mutex mutex_;
    std::list<Entry> entries_;  // the most recently used first
    size_t capacity_;
};

// What a computation is remembered by: the analysis, the scope's window,
// range, step, gap threshold and index-cache note, and the options; empty
// when it is not to be remembered (a step regex, whose text the scope does
// not hold).
std::string memoKey(const Analysis& analysis, const Scope& scope, const AnalysisOptions& options);

}  // namespace gapscope
