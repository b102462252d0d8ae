#pragma once
// How the model stores ExtractedArgs compactly: ids for every event that has
// any (32 bytes), launch parameters only for the GPU operations that have
// them (48 bytes). Trace::extractedArgs() reassembles them.

#include <cstdint>

#include "format/extracted_args.h"
#include "util/types.h"

namespace gapscope {

struct ArgIds {
    int64_t correlation = -1;
    int64_t externalId = -1;
    int32_t device = -1;
    int32_t stream = -1;
    uint32_t launch = kNone;  // index into Trace::launches
    int32_t stepNumber = -1;  // ExtractedArgs::stepNumber (it fits in what was padding)
};
static_assert(sizeof(ArgIds) == 32);

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
