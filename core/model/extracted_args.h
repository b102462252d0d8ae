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

// How they are stored: ids for every event that has any (32 bytes), launch
// parameters only for the GPU operations that have them (48 bytes).
struct ArgIds {
    int64_t correlation = -1;
    int64_t externalId = -1;
    int32_t device = -1;
    int32_t stream = -1;
    uint32_t launch = UINT32_MAX;  // index into Trace::launches
};

struct LaunchParams {
    int32_t grid[3] = {0, 0, 0};
    int32_t block[3] = {0, 0, 0};
    int32_t registersPerThread = -1;
    float occupancyPercent = -1.0f;
    int64_t sharedMemory = -1;
    int64_t bytes = -1;
};

// The split between the two, and back.
bool hasLaunchParams(const ExtractedArgs& x);
LaunchParams launchParamsOf(const ExtractedArgs& x);
void mergeLaunchParams(const LaunchParams& l, ExtractedArgs& x);

}  // namespace gapscope
