#pragma once
// The earliest few of a set of slices, by start (then index), kept while
// they are counted: the first instances a check of the trace (Trace
// Health, the import's report) shows a person, however many there are.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "model/trace.h"

namespace gapscope {

// How many first instances a check keeps.
inline constexpr size_t kExampleSlices = 5;

class EarliestSlices {
  public:
    explicit EarliestSlices(const Trace& t, size_t keep = kExampleSlices) : t_(t), keep_(keep) {}
    void add(uint32_t slice) {
        ++count_;
        if (kept_.size() < keep_) {
            kept_.push_back(slice);
            std::push_heap(kept_.begin(), kept_.end(), earlier());
        } else if (keep_ > 0 && earlier()(slice, kept_.front())) {
            std::pop_heap(kept_.begin(), kept_.end(), earlier());
            kept_.back() = slice;
            std::push_heap(kept_.begin(), kept_.end(), earlier());
        }
    }
    uint64_t count() const { return count_; }
    // By start, then index.
    std::vector<uint32_t> examples() const {
        std::vector<uint32_t> out = kept_;
        std::sort(out.begin(), out.end(), earlier());
        return out;
    }

  private:
    struct Earlier {
        const Trace& t;
        bool operator()(uint32_t a, uint32_t b) const {
            const Slice &x = t.slices[a], &y = t.slices[b];
            return x.start != y.start ? x.start < y.start : a < b;
        }
    };
    Earlier earlier() const { return {t_}; }

    const Trace& t_;
    size_t keep_;
    std::vector<uint32_t> kept_;  // a max-heap by start: the latest kept on top
    uint64_t count_ = 0;
};

}  // namespace gapscope
