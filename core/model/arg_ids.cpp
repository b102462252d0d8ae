#include "model/arg_ids.h"

#include <algorithm>
#include <iterator>

namespace gapscope {

bool hasLaunchParams(const ExtractedArgs& x) {
    return x.grid[0] || x.block[0] || x.registersPerThread >= 0 || x.occupancyPercent >= 0 ||
           x.sharedMemory >= 0 || x.bytes >= 0;
}

LaunchParams launchParamsOf(const ExtractedArgs& x) {
    LaunchParams l;
    std::copy(std::begin(x.grid), std::end(x.grid), l.grid);
    std::copy(std::begin(x.block), std::end(x.block), l.block);
    l.registersPerThread = x.registersPerThread;
    l.occupancyPercent = x.occupancyPercent;
    l.sharedMemory = x.sharedMemory;
    l.bytes = x.bytes;
    return l;
}

void mergeLaunchParams(const LaunchParams& l, ExtractedArgs& x) {
    std::copy(std::begin(l.grid), std::end(l.grid), x.grid);
    std::copy(std::begin(l.block), std::end(l.block), x.block);
    x.registersPerThread = l.registersPerThread;
    x.occupancyPercent = l.occupancyPercent;
    x.sharedMemory = l.sharedMemory;
    x.bytes = l.bytes;
}

}  // namespace gapscope
