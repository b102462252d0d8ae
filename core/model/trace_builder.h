#pragma once
// Turns the reader's stream of RawEvents into a Trace: interns strings,
// matches B/E per (pid, tid), collects counters, flows and async events,
// then (finish) sorts, lays out lanes, classifies GPU and CPU tracks and
// indexes them. Appends only during ingest; every sort happens once at the
// end. The GPU busy union is derived afterwards (analysis/gpu_busy).

#include <functional>
#include <memory>
#include <string_view>

#include "format/raw_event.h"
#include "model/trace.h"
#include "util/cancel_token.h"

namespace gapscope {

class TraceBuilder final : public EventSink {
  public:
    explicit TraceBuilder(Trace& trace);
    ~TraceBuilder() override;

    // Loading stops with a LoadError when the model would need more.
    void setMemoryLimit(uint64_t bytes);
    // Reserves address space (not memory: pages are touched only as they
    // fill) for the per-event arrays of an input of about `bytes` (what its
    // events' offsets run over), at about `bytesPerEvent` each, so they
    // never regrow: each regrowth copies into fresh pages, and fresh pages
    // are what is slow on virtual machines.
    static constexpr uint64_t kJsonBytesPerEvent = 100;
    void expectInputBytes(uint64_t bytes, uint64_t bytesPerEvent = kJsonBytesPerEvent);

    void onEvent(const RawEvent& event) override;
    void onMetadata(std::string_view key, std::string_view rawValue) override;

    // Builds everything derived; throws LoadCancelled when cancelled.
    // With `secondThread`, flow points are grouped beside the layout and
    // bound beside the rest of finish() and `alongside` (the loader's GPU
    // busy union), which runs last on the calling thread either way: it may
    // read the laid-out tracks, slices and ids and write only the GPU devices.
    void finish(const CancelToken* cancel, bool secondThread = false,
                const std::function<void()>& alongside = {});

    // Internal ingest state; public only so finish()'s stages, in separate
    // files, can name it.
    struct State;

  private:
    std::unique_ptr<State> state_;
};

}  // namespace gapscope
