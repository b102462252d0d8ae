#pragma once
// Event arguments pulled out at load because analyses need them; all other
// args stay raw (ArgsStore) until someone looks at the event.

#include <cstdint>

namespace gapscope {

// Arguments pulled out at load for analyses; the rest stay raw in ArgsStore.
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
};

}  // namespace gapscope
