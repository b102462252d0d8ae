#include "loader/trace_readers.h"

#if defined(__linux__)
#include <malloc.h>  // malloc_trim
#endif

#include <algorithm>
#include <atomic>
#include <optional>
#include <thread>

#include "format/chunked_events.h"
#include "format/event_batches.h"
#include "format/nsight/nsight_reader.h"
#include "format/nsight/sqlite_db.h"
#include "format/pipelined_reader.h"
#include "format/xspace/xspace_reader.h"
#include "io/read_ahead_source.h"
#include "util/load_error.h"

namespace gapscope {

namespace {

constexpr size_t kPipelineBufferBytes = 1u << 20;
constexpr size_t kJumpingBufferBytes = 16u << 10;

void releaseFreedMemory() {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

void readChromeJson(ReadRequest& rq) {
    Trace& trace = rq.trace;
    ReaderOptions ro = rq.reader;
    const bool twoCores = std::thread::hardware_concurrency() >= 2;
    ReaderResult rr;
    if (rq.mode == ReadingMode::Pipelined) {
        // Smaller buffers: each is a batch in flight between the threads.
        ro.initialBufferBytes = std::min<size_t>(ro.initialBufferBytes, kPipelineBufferBytes);
        rr = readPipelined(*rq.source, rq.builder, trace.report, ro);
    } else {
        // A chunk size asked for (tests, the fuzzer) applies on one core too,
        // and puts every chunk through the chunk path.
        const bool parseAhead = rq.mode == ReadingMode::Auto && (twoCores || rq.chunkBytes);
        const bool compressed = rq.compression != Compression::None;
        ChunkedEvents::Options co;
        co.chunkBytes = rq.chunkBytes ? rq.chunkBytes : ChunkedEvents::kDefaultChunkBytes;
        co.maxEventBytes = ro.maxEventBytes;
        co.cancel = ro.cancel;
        co.readerParsesChunks = rq.chunkBytes != 0;
        // A compressed stream's chunks take their text from the decompressing
        // thread, which must run ahead by a whole chunk's text.
        if (compressed) co.chunkBytes = std::min(co.chunkBytes, ReadAheadSource::kAheadBytes / 2);
        // (Declared before the source, which feeds it: destroyed after it.)
        std::optional<ChunkedEvents> chunks;
        if (parseAhead && compressed) {
            chunks.emplace(co);
        } else if (parseAhead && rq.plainFileFd >= 0 &&
                   ro.fileSize >= 2 * uint64_t{co.chunkBytes}) {
            co.fd = rq.plainFileFd;
            co.fileSize = ro.fileSize;
            chunks.emplace(co);
        }
        if (chunks) ro.jumps = &*chunks;
        // The reader jumps over the chunks parsed ahead: each jump reads one
        // buffer at the next chunk's start, so a small one copies less of
        // what it passes over (with 1 MiB, the reader of a compressed
        // stream copied 70 % of the inflated text out of the blocks only to
        // jump over it), and holds fewer of the decompressing thread's blocks.
        if (chunks)
            ro.initialBufferBytes = std::min<size_t>(ro.initialBufferBytes, kJumpingBufferBytes);
        std::unique_ptr<ByteSource> source = std::move(rq.source);
        if (parseAhead && compressed)
            source = std::make_unique<ReadAheadSource>(
                std::move(source), ReadAheadSource::kBlockBytes, ReadAheadSource::kBlocks,
                chunks ? &*chunks : nullptr);
        rr = TraceJsonReader(*source, rq.builder, trace.report, ro).run();
        if (chunks) trace.report.eventsParsedAhead = chunks->jumpedEvents();
        if (chunks) {
            // The chunks' batches were allocated on other threads, whose
            // malloc arenas keep freed memory; give it back before the
            // model's finish() allocates its own (about 10 MB of peak RSS).
            source.reset();  // (it feeds the chunks: first)
            chunks.reset();
            releaseFreedMemory();
        }
    }
    trace.objectForm = rr.objectForm;
    trace.decompressedSize = rr.bytesRead;
    const ImportReport& rep = trace.report;
    if (rep.events == 0 && rep.truncated) {
        const std::string why = rep.warnings.empty() ? std::string("the file ends before any event")
                                                     : rep.warnings.front().message;
        throw LoadError(rep.warnings.empty()
                            ? "byte 0"
                            : byteWhere(rep.warnings.front().offset, ro.decompressed),
                        why + " (no event could be read)");
    }
    if (rep.events > 0 && rep.withoutPhase == rep.events) {
        throw LoadError("traceEvents", "not a Chrome trace: none of the " +
                                           std::to_string(rep.events) +
                                           " objects has a \"ph\" (phase) field");
    }
}

// A reader run on a thread of its own while this one builds: batches of
// copied events go one way (format/event_batches.h), as a profile run's
// hosts do. `read(sink, report, options)` reads everything into the sink.
template <class Read>
void readBeside(ReadRequest& rq, Read read, size_t batches = BatchQueue::kMaxBatches) {
    BatchQueue queue(batches);
    ImportReport readerReport;
    CancelToken stop(rq.reader.cancel);  // the user's cancel, or any way out of here
    std::atomic<uint64_t> position{0};
    ReaderOptions ro = rq.reader;
    ro.cancel = &stop;
    ro.progress = [&position](LoadPhase, uint64_t done, uint64_t) {
        position.store(done, std::memory_order_relaxed);
    };
    std::thread reader([&] {
        CopyingSink sink(queue);
        try {
            read(sink, readerReport, ro);
            sink.flush();
            queue.close(nullptr);
        } catch (const PipelineAborted&) {
            queue.close(nullptr);
        } catch (...) {
            const std::exception_ptr error = std::current_exception();
            try {
                sink.flush();  // what was read before the error is built, as on one thread
            } catch (const PipelineAborted&) {
            }
            queue.close(error);
        }
    });
    try {
        while (auto batch = queue.pop()) {
            if (rq.reader.cancel && rq.reader.cancel->isCancelled()) throw LoadCancelled();
            deliver(*batch, rq.builder);
            queue.recycle(std::move(batch));
            if (rq.reader.progress)
                rq.reader.progress(LoadPhase::Reading, position.load(std::memory_order_relaxed),
                                   rq.reader.fileSize);
        }
    } catch (...) {
        stop.cancel();
        queue.abort();
        reader.join();
        throw;
    }
    reader.join();
    rq.trace.report.absorb(readerReport, "");
    if (const std::exception_ptr error = queue.error()) std::rethrow_exception(error);
}

// A plain file's planes are decoded on a second core while this one builds
// (its lines are read one at a time and its args stay in the file, so what
// crosses over is small); a compressed one is inflated on the second core
// instead, and decoded here.
void readXSpace(ReadRequest& rq) {
    std::unique_ptr<ByteSource> source = std::move(rq.source);
    const bool twoCores = rq.mode == ReadingMode::Auto && std::thread::hardware_concurrency() >= 2;
    if (twoCores && rq.compression != Compression::None)
        source = std::make_unique<ReadAheadSource>(std::move(source));
    if ((twoCores && rq.compression == Compression::None && rq.reader.fileFd >= 0) ||
        rq.mode == ReadingMode::Pipelined) {
        XSpaceResult r;
        // Two batches: the building thread is the slower, more would only wait.
        readBeside(
            rq,
            [&](EventSink& sink, ImportReport& report, const ReaderOptions& ro) {
                r = XSpaceReader(*source, sink, report, ro).run();
            },
            2);
        rq.trace.decompressedSize = r.bytesRead;
        return;
    }
    const XSpaceResult r = XSpaceReader(*source, rq.builder, rq.trace.report, rq.reader).run();
    rq.trace.decompressedSize = r.bytesRead;
}

// The export read on a thread of its own (SQLite's stepping and the rows
// made events) while this one builds.
void readNsightBeside(const sqlite::Database& db, ReadRequest& rq) {
    readBeside(rq, [&](EventSink& sink, ImportReport& report, const ReaderOptions& ro) {
        readNsightExport(db, sink, report, ro);
    });
}

// SQLite reads a database by pages, not as a stream: a plain file is opened
// where it lies (through the loader's descriptor, so a rename does not
// matter); a compressed one, or bytes in memory, is inflated whole first.
void readNsight(ReadRequest& rq) {
    Trace& trace = rq.trace;
    std::string bytes;  // (its capacity doubles: a small step keeps that in check)
    std::optional<sqlite::Database> db;
    if (rq.plainFileFd >= 0) {
        db.emplace(sqlite::Database::openDescriptor(rq.plainFileFd, rq.reader.cancel));
        trace.decompressedSize = rq.reader.fileSize;
    } else {
        constexpr size_t kStep = size_t{1} << 20;
        for (;;) {
            if (rq.reader.cancel && rq.reader.cancel->isCancelled()) throw LoadCancelled();
            const size_t at = bytes.size();
            bytes.resize(at + kStep);
            const size_t n = rq.source->read(bytes.data() + at, kStep);
            bytes.resize(at + n);
            if (n == 0) break;
            // A database is read whole, so a compressed one must fit (a small
            // file can inflate to anything).
            if (bytes.size() > rq.memoryLimit / 2)
                throw LoadError("memory",
                                "the compressed database inflates to more than half the memory "
                                "limit; decompress it and open the .sqlite file itself");
        }
        if (rq.source->problem())
            throw LoadError(byteWhere(bytes.size(), true),
                            *rq.source->problem() + " (a database must be read whole)");
        trace.decompressedSize = bytes.size();
        db.emplace(sqlite::Database::openBytes(bytes, rq.reader.cancel));
    }
    if (rq.mode == ReadingMode::OneThread || std::thread::hardware_concurrency() < 2) {
        readNsightExport(*db, rq.builder, trace.report, rq.reader);
        return;
    }
    readNsightBeside(*db, rq);
}

}  // namespace

TraceReaderFn readerFor(InputFormat format) {
    switch (format) {
        case InputFormat::XSpace:
            return &readXSpace;
        case InputFormat::NsightSqlite:
            return &readNsight;
        case InputFormat::ChromeJson:
        case InputFormat::Unknown:
            break;
    }
    return &readChromeJson;
}

}  // namespace gapscope
