#include "loader/folder_reader.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>
#include <system_error>
#include <thread>

#include "format/event_batches.h"
#include "format/input_format.h"
#include "format/json_text.h"
#include "format/xspace/xspace_reader.h"
#include "io/head_source.h"
#include "io/profile_files.h"
#include "io/read_ahead_source.h"
#include "util/load_error.h"

namespace gapscope {

namespace {

// A host's own report into the trace's, its warnings naming the file.
void mergeReport(ImportReport& into, const ImportReport& from, const std::string& file) {
    into.absorb(from, file + ": ");
}

// Tells the builder's failures (the memory limit, a cancel) from the
// reader's: a host whose reader failed is left out; a builder failure
// ends the load.
class BuilderSink final : public EventSink {
  public:
    explicit BuilderSink(EventSink& to) : to_(to) {}
    void onEvent(const RawEvent& event) override {
        try {
            to_.onEvent(event);
        } catch (...) {
            failed_ = true;
            throw;
        }
    }
    void onMetadata(std::string_view key, std::string_view rawValue) override {
        try {
            to_.onMetadata(key, rawValue);
        } catch (...) {
            failed_ = true;
            throw;
        }
    }
    bool failed() const { return failed_; }

  private:
    EventSink& to_;
    bool failed_ = false;
};

std::string fileNameOf(const std::string& path) {
    return std::filesystem::path(path).filename().string();
}

// A JSON string of any bytes (file names need not be UTF-8).
std::string jsonString(std::string_view text) {
    std::string out;
    appendJsonString(out, text);
    return out;
}

// One host file read into `sink` (opened, checked to be XSpace, inflated
// ahead on a second core when compressed); `progress` gets the bytes read.
XSpaceResult readHostFile(const std::string& file, int64_t index, EventSink& sink,
                          ImportReport& report, const LoadOptions& options,
                          const CancelToken* cancel,
                          const std::function<void(uint64_t)>& progress) {
    OpenedSource opened = openTraceSource(file);
    std::unique_ptr<ByteSource> source =
        std::make_unique<HeadSource>(std::move(opened.source), kFormatSniffBytes);
    if (detectInputFormat(static_cast<HeadSource&>(*source).head()) != InputFormat::XSpace)
        throw LoadError("byte 0", "not an XSpace profile (TensorFlow / JAX *.xplane.pb)");
    if (options.mode == ReadingMode::Auto && std::thread::hardware_concurrency() >= 2 &&
        opened.compression != Compression::None)
        source = std::make_unique<ReadAheadSource>(std::move(source));
    ReaderOptions ro;
    ro.cancel = cancel;
    ro.fileSize = opened.fileSize;
    ro.decompressed = opened.compression != Compression::None;
    ro.maxEventBytes = options.maxEventBytes;
    // A plain file's planes are read where they lie; the args of a run's
    // hosts are composed (one trace has one file to read them back from).
    ro.fileFd = opened.fileFd.get();
    const uint64_t size = opened.fileSize;
    ro.progress = [&progress, size](LoadPhase, uint64_t at, uint64_t) {
        progress(std::min(at, size));
    };
    // Hosts never share a process: each has its own 2^32 pids.
    XSpaceHost host{hostOfXSpaceFile(fileNameOf(file)), index << 32};
    const XSpaceResult r = XSpaceReader(*source, sink, report, ro, host).run();
    progress(size);
    return r;
}

// What the hosts came to: the trace's report and metadata, the left-out
// hosts' warnings, and the error when none could be read.
class RunOutcome {
  public:
    RunOutcome(const ProfileRun& run, Trace& trace) : run_(run), trace_(trace) {}

    // Before host i reaches the builder: its warnings are named after it.
    void begin() { warningsBefore_ = trace_.report.warnings.size(); }

    void loaded(size_t i, ImportReport& report, const XSpaceResult& r) {
        nameBuilderWarnings(i);
        trace_.decompressedSize += r.bytesRead;
        mergeReport(trace_.report, report, fileName(i));
        if (hosts_.size() > 1) hosts_ += ',';
        hosts_ += jsonString(hostOfXSpaceFile(fileName(i)));
        ++loaded_;
    }
    // A host whose read failed: left out unless the builder failed, which
    // ends the load (named after the host either way).
    void failed(size_t i, ImportReport& report, const LoadError& e, bool builderFailed) {
        nameBuilderWarnings(i);
        mergeReport(trace_.report, report, fileName(i));
        LoadError named(fileName(i) + ", " + e.where(), e.what());
        if (builderFailed) throw named;
        if (!firstError_) firstError_ = named;
        trace_.report.warn(
            0, fileName(i) + ": " + e.where() + ": " + e.what() + "; that host is left out");
    }
    void finish(EventSink& builder) {
        if (loaded_ == 0) {
            if (firstError_) throw *firstError_;
            throw LoadError("folder", "the run has no host files");
        }
        builder.onMetadata("profile run", jsonString(run_.name));
        builder.onMetadata("profile hosts", hosts_ + "]");
    }
    std::string fileName(size_t i) const { return fileNameOf(run_.files[i]); }

  private:
    void nameBuilderWarnings(size_t i) {
        auto& w = trace_.report.warnings;
        for (size_t k = std::min(warningsBefore_, w.size()); k < w.size(); ++k)
            w[k].message = fileName(i) + ": " + w[k].message;
    }

    const ProfileRun& run_;
    Trace& trace_;
    std::string hosts_ = "[";
    size_t loaded_ = 0, warningsBefore_ = 0;
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
        BuilderSink sink(builder);
        uint64_t at = 0;
        const std::function<void(uint64_t)> progress = [&](uint64_t bytes) {
            at = bytes;
            if (options.progress) options.progress(LoadPhase::Reading, done + at, total);
        };
        outcome.begin();
        try {
            const XSpaceResult r = readHostFile(run.files[i], static_cast<int64_t>(i), sink, report,
                                                options, options.cancel, progress);
            outcome.loaded(i, report, r);
        } catch (const LoadError& e) {
            outcome.failed(i, report, e, sink.failed());
        }
        done += at;
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

// The builder is the bottleneck beyond one decoder (docs/performance.md);
// each more would only hold another plane and its batches.
constexpr size_t kMaxDecoders = 2;

// False when no worker thread could be started (nothing was read then).
bool readInParallel(const ProfileRun& run, TraceBuilder& builder, RunOutcome& outcome,
                    const LoadOptions& options, uint64_t total, size_t workers) {
    const size_t n = run.files.size();
    std::vector<std::unique_ptr<HostSlot>> slots;
    for (size_t i = 0; i < n; ++i)
        slots.push_back(std::make_unique<HostSlot>());
    std::atomic<size_t> next{0};
    std::atomic<uint64_t> finishedBytes{0};   // of the hosts already built
    CancelToken stopWorkers(options.cancel);  // the user's cancel, or any way out of here
    auto work = [&] {
        for (size_t i; (i = next.fetch_add(1)) < n;) {
            HostSlot& slot = *slots[i];
            CopyingSink sink(slot.queue);
            try {
                slot.result = readHostFile(
                    run.files[i], static_cast<int64_t>(i), sink, slot.report, options, &stopWorkers,
                    [&slot](uint64_t at) { slot.position.store(at, std::memory_order_relaxed); });
                sink.flush();
                slot.queue.close(nullptr);
            } catch (const PipelineAborted&) {
                slot.queue.close(nullptr);
                return;
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
    auto stop = [&] {
        next.store(n);  // no worker starts another host
        stopWorkers.cancel();
        for (auto& slot : slots)
            if (slot) slot->queue.abort();
        for (std::thread& t : threads)
            t.join();
        threads.clear();
    };
    for (size_t w = 0; w < workers; ++w) {
        try {
            threads.emplace_back(work);
        } catch (const std::system_error&) {  // out of threads: fewer workers
            break;
        }
    }
    if (threads.empty()) return false;
    try {
        for (size_t i = 0; i < n; ++i) {
            HostSlot& slot = *slots[i];
            BuilderSink sink(builder);
            outcome.begin();
            try {
                while (auto batch = slot.queue.pop()) {
                    if (options.cancel && options.cancel->isCancelled()) throw LoadCancelled();
                    deliver(*batch, sink);
                    slot.queue.recycle(std::move(batch));
                    if (options.progress)
                        options.progress(LoadPhase::Reading,
                                         finishedBytes.load() + slot.position.load(), total);
                }
            } catch (const LoadError& e) {  // the builder's: named after the host
                throw LoadError(outcome.fileName(i) + ", " + e.where(), e.what());
            }
            if (const std::exception_ptr error = slot.queue.error()) {
                try {
                    std::rethrow_exception(error);
                } catch (const LoadError& e) {
                    outcome.failed(i, slot.report, e, false);
                }
            } else {
                outcome.loaded(i, slot.report, slot.result);
            }
            finishedBytes += slot.position.load();
            // Done with: its worker touches nothing of it after close().
            slots[i].reset();
        }
    } catch (...) {
        stop();
        throw;
    }
    stop();
    return true;
}

}  // namespace

void readProfileRun(const ProfileRun& run, TraceBuilder& builder, Trace& trace,
                    const LoadOptions& options) {
    const uint64_t total = totalBytes(run);
    builder.expectInputBytes(total, kXSpaceBytesPerEvent);
    RunOutcome outcome(run, trace);
    // Two cores or more: decode on others while this one builds (with
    // planes read where they lie, what crosses over is small enough for
    // that to pay on two; docs/performance.md).
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const bool parallel =
        !run.files.empty() &&
        (options.mode == ReadingMode::Pipelined ||
         (options.mode == ReadingMode::Auto && cores >= 2 && run.files.size() >= 2));
    if (parallel) {
        const size_t workers = std::min({size_t{cores - 1}, kMaxDecoders, run.files.size()});
        if (!readInParallel(run, builder, outcome, options, total, std::max<size_t>(workers, 1)))
            readOneAfterAnother(run, builder, outcome, options, total);
    } else {
        readOneAfterAnother(run, builder, outcome, options, total);
    }
    outcome.finish(builder);
}

}  // namespace gapscope
