#pragma once
// The event arguments a reader pulls out at load because analyses need them
// (device, stream, correlation, launch parameters, bytes); all other args
// stay raw in the ArgsStore until someone looks at the event. Any reader
// (JSON today, XSpace later) fills the same fields.

#include <cstdint>

namespace gapscope {

struct ExtractedArgs {
    int64_t correlation = -1;
    int64_t externalId = -1;
    int32_t device = -1;
    int32_t stream = -1;
    int32_t grid[3] = {0, 0, 0};
    int32_t block[3] = {0, 0, 0};
    int32_t registersPerThread = -1;
    int64_t sharedMemory = -1;
    float occupancyPercent = -1.0f;
    int64_t bytes = -1;
    // A training step's number (TensorFlow's train/test markers' step_num):
    // a non-negative integer, -1 when absent.
    int64_t stepNumber = -1;
};

}  // namespace gapscope
