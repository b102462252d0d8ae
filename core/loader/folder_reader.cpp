#include "loader/folder_reader.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "format/event_batches.h"
#include "format/input_format.h"
#include "format/xspace_reader.h"
#include "io/head_source.h"
#include "io/profile_files.h"
#include "io/read_ahead_source.h"
#include "util/load_error.h"

namespace gapscope {

namespace {

// A host's own report into the trace's, its warnings naming the file.
void mergeReport(ImportReport& into, ImportReport& from, const std::string& file) {
    into.events += from.events;
    for (const auto& [k, v] : from.phases)
        into.phases[k] += v;
    for (const auto& [k, v] : from.skipped)
        into.skipped[k] += v;
    for (const auto& [k, v] : from.unknown)
        into.unknown[k] += v;
    into.withoutPhase += from.withoutPhase;
    into.invalidEvents += from.invalidEvents;
    into.negativeDurations += from.negativeDurations;
    into.truncated = into.truncated || from.truncated;
    for (ImportWarning& w : from.warnings)
        into.warn(w.offset, file + ": " + std::move(w.message));
    into.suppressedWarnings += from.suppressedWarnings;
}

// Counts the events offered to the builder: a host whose read failed
// before any can be left out whole; after one, the failure is the
// builder's (the memory limit, a cancel) and ends the load.
class CountingSink final : public EventSink {
  public:
    explicit CountingSink(EventSink& to) : to_(to) {}
    void onEvent(const RawEvent& event) override {
        ++offered_;
        to_.onEvent(event);
    }
    void onMetadata(std::string_view key, std::string_view rawValue) override {
        to_.onMetadata(key, rawValue);
    }
    uint64_t offered() const { return offered_; }

  private:
    EventSink& to_;
    uint64_t offered_ = 0;
};

// One host file read into `sink` (opened, checked to be XSpace, inflated
// ahead on a second core when compressed). `position` follows the bytes
// read, for progress.
XSpaceResult readHostFile(const std::string& file, int64_t index, EventSink& sink,
                          ImportReport& report, const LoadOptions& options,
                          std::atomic<uint64_t>& position) {
    OpenedSource opened = openTraceSource(file);
    std::unique_ptr<ByteSource> source =
        std::make_unique<HeadSource>(std::move(opened.source), kFormatSniffBytes);
    if (detectInputFormat(static_cast<HeadSource&>(*source).head()) != InputFormat::XSpace)
        throw LoadError("byte 0", "not an XSpace profile (TensorFlow / JAX *.xplane.pb)");
    if (options.threads == 0 && std::thread::hardware_concurrency() >= 2 &&
        opened.compression != Compression::None)
        source = std::make_unique<ReadAheadSource>(std::move(source));
    ReaderOptions ro;
    ro.cancel = options.cancel;
    ro.fileSize = opened.fileSize;
    ro.decompressed = opened.compression != Compression::None;
    ro.maxEventBytes = options.maxEventBytes;
    const uint64_t size = opened.fileSize;
    ro.progress = [&position, size](LoadPhase, uint64_t at, uint64_t) {
        position.store(std::min(at, size), std::memory_order_relaxed);
    };
    // Hosts never share a process: each has its own 2^32 pids.
    XSpaceHost host{hostOfXSpaceFile(std::filesystem::path(file).filename().string()), index << 32};
    const XSpaceResult r = XSpaceReader(*source, sink, report, ro, host).run();
    position.store(size, std::memory_order_relaxed);
    return r;
}

// What the hosts came to: the trace's report and metadata, the left-out
// hosts' warnings, and the error when none could be read.
class RunOutcome {
  public:
    RunOutcome(const ProfileRun& run, Trace& trace) : run_(run), trace_(trace) {}

    void loaded(size_t i, ImportReport& report, const XSpaceResult& r) {
        trace_.decompressedSize += r.bytesRead;
        mergeReport(trace_.report, report, fileName(i));
        if (hosts_.size() > 1) hosts_ += ',';
        hosts_ += nlohmann::json(hostOfXSpaceFile(fileName(i))).dump();
        ++loaded_;
    }
    // A host whose read failed: left out when none of its events reached
    // the builder, else the end of the load.
    void failed(size_t i, ImportReport& report, const LoadError& e, uint64_t offered) {
        mergeReport(trace_.report, report, fileName(i));
        LoadError named(fileName(i) + ", " + e.where(), e.what());
        if (offered > 0) throw named;
        if (!firstError_) firstError_ = named;
        trace_.report.warn(
            0, fileName(i) + ": " + e.where() + ": " + e.what() + "; that host is left out");
    }
    void finish(EventSink& builder) {
        if (loaded_ == 0) throw *firstError_;
        builder.onMetadata("profile run", nlohmann::json(run_.name).dump());
        builder.onMetadata("profile hosts", hosts_ + "]");
    }

  private:
    std::string fileName(size_t i) const {
        return std::filesystem::path(run_.files[i]).filename().string();
    }
    const ProfileRun& run_;
    Trace& trace_;
    std::string hosts_ = "[";
    size_t loaded_ = 0;
    std::optional<LoadError> firstError_;
};

uint64_t totalBytes(const ProfileRun& run) {
    uint64_t total = 0;
    for (const std::string& file : run.files) {
        std::error_code ec;
        const auto size = std::filesystem::file_size(file, ec);
        if (!ec) total += size;
    }
    return total;
}

void readOneAfterAnother(const ProfileRun& run, TraceBuilder& builder, RunOutcome& outcome,
                         const LoadOptions& options, uint64_t total) {
    uint64_t done = 0;
    for (size_t i = 0; i < run.files.size(); ++i) {
        ImportReport report;
        CountingSink sink(builder);
        std::atomic<uint64_t> position{0};
        try {
            const XSpaceResult r = readHostFile(run.files[i], static_cast<int64_t>(i), sink, report,
                                                options, position);
            outcome.loaded(i, report, r);
        } catch (const LoadError& e) {
            outcome.failed(i, report, e, sink.offered());
        }
        done += position.load();
        if (options.progress) options.progress(LoadPhase::Reading, done, total);
    }
}

// Hosts decoded on worker threads (each takes the next host), built here
// in host order: the same calls reach the builder as one after another.
struct HostSlot {
    BatchQueue queue;
    ImportReport report;
    XSpaceResult result;
    std::atomic<uint64_t> position{0};
};

void readInParallel(const ProfileRun& run, TraceBuilder& builder, RunOutcome& outcome,
                    const LoadOptions& options, uint64_t total, size_t workers) {
    const size_t n = run.files.size();
    std::vector<std::unique_ptr<HostSlot>> slots;
    for (size_t i = 0; i < n; ++i)
        slots.push_back(std::make_unique<HostSlot>());
    std::atomic<size_t> next{0};
    auto work = [&] {
        for (size_t i; (i = next.fetch_add(1)) < n;) {
            HostSlot& slot = *slots[i];
            CopyingSink sink(slot.queue);
            try {
                slot.result = readHostFile(run.files[i], static_cast<int64_t>(i), sink, slot.report,
                                           options, slot.position);
                sink.flush();
                slot.queue.close(nullptr);
            } catch (const PipelineAborted&) {
                slot.queue.close(nullptr);
            } catch (...) {
                const std::exception_ptr error = std::current_exception();
                try {
                    sink.flush();  // what was read before, as one after another delivers it
                } catch (const PipelineAborted&) {
                }
                slot.queue.close(error);
            }
        }
    };
    std::vector<std::thread> threads;
    for (size_t w = 0; w < workers; ++w)
        threads.emplace_back(work);
    auto stop = [&] {
        for (auto& slot : slots)
            slot->queue.abort();
        for (std::thread& t : threads)
            t.join();
        threads.clear();
    };
    try {
        for (size_t i = 0; i < n; ++i) {
            HostSlot& slot = *slots[i];
            CountingSink sink(builder);
            while (auto batch = slot.queue.pop()) {
                if (options.cancel && options.cancel->isCancelled()) throw LoadCancelled();
                deliver(*batch, sink);
                slot.queue.recycle(std::move(batch));
                if (options.progress) {
                    uint64_t at = 0;
                    for (const auto& s : slots)
                        at += s->position.load(std::memory_order_relaxed);
                    options.progress(LoadPhase::Reading, at, total);
                }
            }
            if (const std::exception_ptr error = slot.queue.error()) {
                try {
                    std::rethrow_exception(error);
                } catch (const LoadError& e) {
                    outcome.failed(i, slot.report, e, sink.offered());
                }
            } else {
                outcome.loaded(i, slot.report, slot.result);
            }
        }
    } catch (...) {
        stop();
        throw;
    }
    stop();
}

}  // namespace

void readProfileRun(const ProfileRun& run, TraceBuilder& builder, Trace& trace,
                    const LoadOptions& options) {
    const uint64_t total = totalBytes(run);
    builder.expectJsonBytes(total * 4);
    RunOutcome outcome(run, trace);
    // Two cores or more: decode on the others while this one builds.
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const bool parallel =
        options.threads == 2 || (options.threads == 0 && cores >= 2 && run.files.size() >= 2);
    if (parallel) {
        const size_t workers = std::clamp<size_t>(cores - 1, 1, run.files.size());
        readInParallel(run, builder, outcome, options, total, workers);
    } else {
        readOneAfterAnother(run, builder, outcome, options, total);
    }
    outcome.finish(builder);
}

}  // namespace gapscope
