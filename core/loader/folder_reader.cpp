#include "loader/folder_reader.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

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

}  // namespace

void readProfileRun(const ProfileRun& run, TraceBuilder& builder, Trace& trace,
                    const LoadOptions& options) {
    namespace fs = std::filesystem;
    uint64_t total = 0;
    for (const std::string& file : run.files) {
        std::error_code ec;
        const auto size = fs::file_size(file, ec);
        if (!ec) total += size;
    }
    builder.expectJsonBytes(total * 4);
    uint64_t done = 0, loaded = 0;
    std::optional<LoadError> firstError;
    std::string hosts = "[";
    for (size_t i = 0; i < run.files.size(); ++i) {
        const std::string fileName = fs::path(run.files[i]).filename().string();
        const std::string host = hostOfXSpaceFile(fileName);
        ImportReport report;
        CountingSink sink(builder);
        uint64_t size = 0;
        try {
            OpenedSource opened = openTraceSource(run.files[i]);
            size = opened.fileSize;
            std::unique_ptr<ByteSource> source =
                std::make_unique<HeadSource>(std::move(opened.source), kFormatSniffBytes);
            if (detectInputFormat(static_cast<HeadSource&>(*source).head()) != InputFormat::XSpace)
                throw LoadError("byte 0", "not an XSpace profile (TensorFlow / JAX *.xplane.pb)");
            if (options.threads == 0 && std::thread::hardware_concurrency() >= 2 &&
                opened.compression != Compression::None)
                source = std::make_unique<ReadAheadSource>(std::move(source));
            ReaderOptions ro;
            ro.cancel = options.cancel;
            ro.fileSize = total;
            ro.decompressed = opened.compression != Compression::None;
            ro.maxEventBytes = options.maxEventBytes;
            if (options.progress) {
                ro.progress = [&, done](LoadPhase phase, uint64_t at, uint64_t) {
                    options.progress(phase, done + std::min(at, size), total);
                };
            }
            // Hosts never share a process: each has its own 2^32 pids.
            XSpaceHost named{host, static_cast<int64_t>(i) << 32};
            const XSpaceResult r = XSpaceReader(*source, sink, report, ro, named).run();
            trace.decompressedSize += r.bytesRead;
            mergeReport(trace.report, report, fileName);
            ++loaded;
            if (hosts.size() > 1) hosts += ',';
            hosts += nlohmann::json(host).dump();
        } catch (const LoadError& e) {
            mergeReport(trace.report, report, fileName);
            LoadError named(fileName + ", " + e.where(), e.what());
            if (sink.offered() > 0) throw named;
            if (!firstError) firstError = named;
            trace.report.warn(
                0, fileName + ": " + e.where() + ": " + e.what() + "; that host is left out");
        }
        done += size;
    }
    if (loaded == 0) throw *firstError;
    builder.onMetadata("profile run", nlohmann::json(run.name).dump());
    builder.onMetadata("profile hosts", hosts + "]");
}

}  // namespace gapscope
