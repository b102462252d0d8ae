#pragma once
// The idle gaps of each GPU with a cause and the evidence for it: the first
// question Gapscope answers. Gaps are the maximal intervals between the
// device's busy intervals inside the window; those of at least the
// threshold are listed, the shorter ones only totalled ("short gaps",
// kernel wait). Each listed gap [s, e) gets the first cause that holds:
//
//  1. input: for at least half of the gap the host was inside input work
//     (a DataLoader `__next__`, `IteratorGetNext...`, `Iterator::...`);
//  2. synchronization: the host was blocked in a synchronizing call when
//     the gap began (one started before s and had not returned by s), or
//     such calls cover at least half of it: cu/cuda/hip...Synchronize, a
//     blocking cudaMemcpy/hipMemcpy, aten::_local_scalar_dense (`.item()`).
//     A host blocked there cannot run ahead, so the GPU drains its queue;
//  3. communication: the gap ends in a communication kernel, or the host
//     was in a collective or its wait (`nccl:...`, `c10d::...`,
//     ProcessGroupNCCL, record_param_comms) for at least half of it;
//  4. host (HTA's "host wait"): the launch call of a kernel that ends the
//     gap (its cuda_runtime / cuda_driver / Runtime call with the same
//     correlation id, else the source of its ac2g flow) started after the
//     gap began: the GPU waited for the CPU to issue work. Evidence: those
//     launches and what their thread was doing meanwhile;
//  5. other.
// Input comes first: a `.item()` followed by a long wait for the next
// batch is an input stall that a sync happened to start.
// "The host" is every CPU thread of the trace (of the device's rank when
// ranks are merged into one trace: model/merge_traces.h); "at least half"
// compares twice the covered time with the gap's length, in integer ns.

#include <array>
#include <memory>
#include <vector>

#include "analysis/gpu_activity.h"
#include "analysis/idle_gaps.h"
#include "util/cancel_token.h"

namespace gapscope {

class AnalysisIndex;
class LaunchCalls;

enum class GapCause : uint8_t { Input, Synchronization, Communication, Host, Other };
inline constexpr size_t kGapCauseCount = 5;
const char* gapCauseName(GapCause cause);  // "input", "synchronization", ...
// What files and gates written before the host cause had its name call it
// ("launch"); readers accept it for GapCause::Host.
inline constexpr const char* kFormerHostCauseName = "launch";

struct CausedGap {
    Interval gap;
    // The whole gap `gap` is a piece of, whose extent decided the cause (a
    // gap split between steps); equal to `gap` when it is whole.
    Interval whole;
    GapCause cause = GapCause::Other;
    std::vector<uint32_t> evidence;  // slice indices, by start
};

struct DeviceGaps {
    int device = 0;
    TimeNs busy = 0;              // in the window
    std::vector<CausedGap> gaps;  // listed (>= threshold), in time order
    std::array<TimeNs, kGapCauseCount> byCause{};
    uint64_t shortCount = 0;  // gaps under the threshold
    TimeNs shortTotal = 0;
};

struct GapOptions {
    Interval window = kWholeTrace;
    TimeNs minGapNs = kDefaultGapThresholdNs;
    const AnalysisIndex* index = nullptr;  // built once per trace; else built here
    const CancelToken* cancel = nullptr;
};

// Decides the cause of any idle interval of a device by the rules above
// (the per-step breakdown asks it for the idle pieces of each step). Builds
// an index of the host's input, sync and communication slices and of the
// launch calls once.
class GapExplainer {
  public:
    // `launches` (kept, not copied) saves indexing the launch calls again.
    explicit GapExplainer(const Trace& trace, const LaunchCalls* launches = nullptr);
    GapExplainer(const Trace&&, const LaunchCalls* = nullptr) = delete;  // it keeps a reference
    ~GapExplainer();
    GapExplainer(const GapExplainer&) = delete;
    GapExplainer& operator=(const GapExplainer&) = delete;

    // The cause and evidence (sorted by start, then name, then end).
    CausedGap explain(const GpuDevice& device, Interval gap) const;

    struct Index;  // defined in the .cpp only

  private:
    const Trace& trace_;
    std::unique_ptr<Index> index_;
};

// One per device with activity in the window; {} when cancelled.
std::vector<DeviceGaps> gapsWithCauses(const Trace& trace, const GapOptions& options = {});

}  // namespace gapscope
