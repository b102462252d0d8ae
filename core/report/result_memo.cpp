#include "report/result_memo.h"

namespace gapscope {

std::shared_ptr<const AnalysisResult> ResultMemo::find(const std::string& key) {
    const std::lock_guard lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
        if (it->first != key) continue;
        entries_.splice(entries_.begin(), entries_, it);
        return entries_.front().second;
    }
    return nullptr;
}

void ResultMemo::remember(const std::string& key, std::shared_ptr<const AnalysisResult> result) {
    const std::lock_guard lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end(); ++it)
        if (it->first == key) {
            entries_.erase(it);
            break;
        }
    entries_.emplace_front(key, std::move(result));
    while (entries_.size() > capacity_)
        entries_.pop_back();
}

size_t ResultMemo::size() const {
    const std::lock_guard lock(mutex_);
    return entries_.size();
}

std::string memoKey(const Analysis& analysis, const Scope& scope, const AnalysisOptions& options) {
    if (scope.stepRegex) return {};
    std::string key = analysis.id;
    auto add = [&](const std::string& part) { key += '\x1f' + part; };
    add(std::to_string(scope.window.start) + ":" + std::to_string(scope.window.end));
    add(scope.range ? std::to_string(scope.range->start) + ":" + std::to_string(scope.range->end)
                    : "-");
    add(scope.step ? std::to_string(*scope.step) : "-");
    add(std::to_string(scope.minGapNs));
    add(scope.indexCache);
    add(options.key());
    if (scope.peaks) {  // the roofs given: each figure of them
        std::string roofs = std::to_string(scope.peaks->memoryBandwidth) + "/" +
                            std::to_string(scope.peaks->linkBandwidth);
        for (const auto& f : scope.peaks->flops)
            roofs += "/" + (f ? std::to_string(*f) : std::string("-"));
        add(roofs);
    }
    return key;
}

}  // namespace gapscope
