#include "loader/loader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <new>
#include <thread>

#include "analysis/gpu_busy.h"
#include "cache/index_cache.h"
#include "format/args_decoder.h"
#include "format/input_format.h"
#include "format/xspace/xspace_reader.h"
#include "io/head_source.h"
#include "loader/folder_reader.h"
#include "loader/profile_folder.h"
#include "loader/trace_readers.h"
#include "model/trace_builder.h"
#include "util/load_error.h"
#include "util/unique_fd.h"

namespace gapscope {

std::optional<ReadingMode> readingModeNamed(std::string_view name) {
    if (name == "auto") return ReadingMode::Auto;
    if (name == "1") return ReadingMode::OneThread;
    if (name == "2") return ReadingMode::Pipelined;
    return std::nullopt;
}

std::string TracePart::cacheKey() const {
    if (whole()) return {};
    std::string key = processes.allBut ? "processes but" : "processes";
    for (const int64_t p : processes.pids)
        key += ' ' + std::to_string(p);
    return key;
}

uint64_t defaultMemoryLimit() {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || pageSize <= 0) return uint64_t{16} << 30;
    return static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize) / 4 * 3;
}

namespace {

bool endsWith(std::string_view s, std::string_view tail) {
    return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// Nsight Systems' reports (.nsys-rep; .qdrep before 2021.3) are told by
// their name: their bytes are a private format.
bool isNsightReport(std::string_view path) {
    return endsWith(path, ".nsys-rep") || endsWith(path, ".qdrep");
}

std::string baseName(const std::string& path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Builds a trace at `path` from what `read` feeds the builder, then
// finishes it; every failure becomes the result's.
LoadResult loadInto(const std::string& path, const LoadOptions& options,
                    const std::function<void(Trace&, TraceBuilder&)>& read) {
    LoadResult result;
    try {
        auto trace = std::make_shared<Trace>();
        trace->path = path;
        TraceBuilder builder(*trace);
        builder.setMemoryLimit(options.memoryLimitBytes ? options.memoryLimitBytes
                                                        : defaultMemoryLimit());
        read(*trace, builder);
        if (options.progress) options.progress(LoadPhase::Building, 0, 1000);
        // The busy union beside the flows' binding, unless one thread was asked for.
        builder.finish(
            options.cancel,
            options.mode != ReadingMode::OneThread && std::thread::hardware_concurrency() >= 2,
            [&] { computeGpuBusy(*trace); });
        if (options.progress) options.progress(LoadPhase::Indexing, 1000, 1000);
        result.trace = std::move(trace);
    } catch (const LoadError& e) {
        result.failure = LoadFailure{path, e.where(), e.what()};
    } catch (const LoadCancelled&) {
        result.cancelled = true;
    } catch (const std::bad_alloc&) {
        result.failure = LoadFailure{path, "memory", "out of memory while loading the trace"};
    }
    return result;
}

LoadResult loadWith(const std::string& path, const std::function<OpenedSource()>& open,
                    const LoadOptions& options) {
    return loadInto(path, options, [&](Trace& trace, TraceBuilder& builder) {
        OpenedSource opened = open();
        trace.compression = opened.compression;
        trace.fileSize = opened.fileSize;
        trace.fileStamp = opened.stamp;
        // What the bytes are decides the reader.
        auto head = std::make_unique<HeadSource>(std::move(opened.source), kFormatSniffBytes);
        const InputFormat format = detectInputFormat(head->head());
        // The model's arrays sized for the events the file likely holds, so
        // they do not grow by copying (two copies at the peak): compressed
        // traces are about 10x smaller than their JSON (zstd and gzip on
        // profiler output), an XSpace event about a quarter of its JSON.
        // The guess only sizes address space.
        const uint64_t inflated =
            opened.compression == Compression::None ? opened.fileSize : opened.fileSize * 10;
        builder.expectInputBytes(inflated, format == InputFormat::XSpace
                                               ? kXSpaceBytesPerEvent
                                               : TraceBuilder::kJsonBytesPerEvent);
        if (format == InputFormat::Unknown && isNsightReport(path))
            throw LoadError("open",
                            "an Nsight Systems report is NVIDIA's own format, which only Nsight "
                            "Systems reads: export it with `nsys export --type sqlite " +
                                baseName(path) +
                                "` (or record with `nsys profile --export=sqlite`) and open the "
                                ".sqlite file");
        if (!options.part.whole() && format != InputFormat::NsightSqlite)
            throw LoadError("open",
                            "only an Nsight Systems export is read one process at a "
                            "time; this is " +
                                std::string(inputFormatName(format)));
        // Chunks of an uncompressed file are read on other cores through their own descriptor.
        UniqueFd chunkFd;
        if (opened.fileFd.valid() && opened.compression == Compression::None)
            chunkFd = UniqueFd(::fcntl(opened.fileFd.get(), F_DUPFD_CLOEXEC, 0));
        // Readers whose args are in the (uncompressed) file leave them there:
        // its JSON text, or its binary form for the format's decoder.
        const bool argsStay = opened.fileFd.valid() && argsInFile(format) != ArgsInFile::No;
        if (argsStay)
            trace.argsStore.useFile(std::move(opened.fileFd), opened.fileSize, opened.fileMtimeNs,
                                    makeArgsDecoder(format));
        ReadRequest rq{std::move(head), opened.compression, builder,           trace, {},
                       options.mode,    chunkFd.get(),      options.chunkBytes};
        rq.reader.cancel = options.cancel;
        rq.reader.progress = options.progress;
        rq.reader.fileSize = opened.fileSize;
        rq.reader.decompressed = opened.compression != Compression::None;
        rq.reader.maxEventBytes = options.maxEventBytes;
        rq.reader.processes = options.part.processes;
        rq.reader.fileFd = chunkFd.get();
        rq.reader.argsStayInFile = argsStay;
        rq.memoryLimit = options.memoryLimitBytes ? options.memoryLimitBytes : defaultMemoryLimit();
        // Small files get a small buffer; compressed ones about their inflated size.
        const uint64_t expected =
            rq.reader.decompressed ? opened.fileSize * 8 : opened.fileSize + 64;
        rq.reader.initialBufferBytes =
            static_cast<size_t>(std::clamp<uint64_t>(expected, 4096, 4u << 20));
        trace.inputFormat = format == InputFormat::Unknown ? InputFormat::ChromeJson : format;
        readerFor(format)(rq);
    });
}

// A profile run's folder: its host files, stamped together.
LoadResult loadRun(const ProfileRun& run, const LoadOptions& options) {
    return loadInto(run.folder, options, [&](Trace& trace, TraceBuilder& builder) {
        trace.inputFormat = InputFormat::XSpace;
        trace.fileStamp = stampOfFiles(run.files);
        trace.fileSize = trace.fileStamp.size;
        readProfileRun(run, builder, trace, options);
    });
}

bool isFolder(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

LoadResult loadTrace(const std::string& path, const LoadOptions& options) {
    // Cancelled before it began (a load replaced while still queued): not
    // even the index cache is read.
    if (options.cancel && options.cancel->isCancelled()) {
        LoadResult cancelled;
        cancelled.cancelled = true;
        return cancelled;
    }
    std::string input = path;
    std::function<LoadResult()> parse = [&] {
        return loadWith(
            path, [&] { return openTraceSource(path); }, options);
    };
    ProfileRuns runs;
    const ProfileRun* run = nullptr;
    if (isFolder(path) && !options.part.whole()) {
        LoadResult failed;
        failed.failure = LoadFailure{path, "folder", "a part of a folder cannot be read"};
        return failed;
    }
    if (isFolder(path)) {
        runs = findProfileRuns(path);
        std::string why;
        run = chooseRun(runs, options.run, why);
        if (!run) {
            LoadResult failed;
            failed.failure = LoadFailure{path, runs.runs.empty() ? "folder" : "run", why};
            for (const ProfileRun& r : runs.runs)
                failed.runs.push_back(r.name);
            return failed;
        }
        input = run->folder;
        parse = [&] { return loadRun(*run, options); };
    }
    LoadResult result;
    if (!options.cache) {
        result = parse();
    } else if (IndexCache::Lookup hit = options.cache->load(input, options.part.cacheKey());
               hit.trace) {
        result.trace = std::move(hit.trace);
        result.cacheNote = "hit";
    } else {
        result = parse();
        result.cacheNote = std::string(cacheOutcomeName(hit.outcome)) + " (" + hit.detail + ")";
        if (result.trace && options.storeInCache) {
            const std::string error = options.cache->store(*result.trace, options.part.cacheKey());
            result.cacheNote += error.empty() ? "; written" : "; not written: " + error;
        }
    }
    if (run) {
        result.run = run->name;
        for (const ProfileRun& r : runs.runs)
            result.runs.push_back(r.name);
    }
    return result;
}

LoadResult loadTraceFromBytes(std::string bytes, const std::string& name,
                              const LoadOptions& options, size_t chunk) {
    return loadWith(
        name, [&] { return openMemorySource(std::move(bytes), chunk); }, options);
}

}  // namespace gapscope
