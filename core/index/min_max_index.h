#pragma once
// Minimum and maximum of any run of a sample array in O(F · log_F n): a
// pyramid of per-block extremes (F = 16 samples per block, 16 blocks per
// block of the level above), about 1 byte per sample. Counter rows ask it
// for each pixel column's extremes, so a frame costs O(pixels · log n)
// however many samples a series has, and no spike is ever skipped.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "util/huge_vector.h"

namespace gapscope {

struct MinMax {
    double min = 0;
    double max = 0;
};

class MinMaxIndex {
  public:
    static constexpr size_t kFanout = 16;

    void build(const HugeVector<double>& values);
    // Extremes of values[lo, hi); hi > lo, both within the built array.
    MinMax query(const HugeVector<double>& values, size_t lo, size_t hi) const;
    // Of the whole array (the first query a counter row needs for its scale).
    MinMax overall() const { return overall_; }
    size_t memoryBytes() const;

  private:
    std::vector<std::vector<MinMax>> levels_;  // levels_[k][i]: block i of kFanout^(k+1) samples
    MinMax overall_;
};

}  // namespace gapscope
