// gapscope._gapscope: the native half of the Python module. It opens a
// trace as the CLI opens TRACE, runs any registered analysis with the
// CLI's own command-line parser (so an option means exactly what it means
// to gapscope-cli) and hands back its typed tables as columns, the
// trace's slices as NumPy arrays, and the exported picture. The Python
// half (gapscope/__init__.py) turns these into DataFrames and methods.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <future>
#include <memory>
#include <sstream>
#include <thread>

#include "load_args.h"
#include "python_values.h"
#include "report/analysis_render.h"
#include "report/analysis_schema.h"
#include "slice_arrays.h"
#include "trace_session.h"
#include "util/atomic_file.h"
#ifdef GAPSCOPE_HAVE_RENDER
#include "render_picture.h"
#endif

namespace py = pybind11;

namespace gapscope::python {

namespace {

// gapscope.TraceError: a trace that cannot be opened, or a request it
// cannot answer (no such step); its text names the file.
// (A handle kept for the process: an object would be let go after the
// interpreter.)
py::handle& traceError() {
    static py::handle error;
    return error;
}

[[noreturn]] void raise(const std::string& message) {
    PyErr_SetObject(traceError().ptr(), text(message).ptr());
    throw py::error_already_set();
}

py::list texts(const std::vector<std::string>& lines) {
    py::list out;
    for (const std::string& l : lines)
        out.append(text(l));
    return out;
}

using OpenTrace = cli::TraceSession;

const char* phaseName(LoadPhase phase) {
    switch (phase) {
        case LoadPhase::Reading:
            return "reading";
        case LoadPhase::Building:
            return "building";
        case LoadPhase::Indexing:
            return "indexing";
    }
    return "";
}

const Analysis& registered(const std::string& id) {
    const Analysis* a = analysisRegistry().find(id);
    if (!a) throw py::value_error("no analysis '" + id + "'");
    return *a;
}

cli::CommandLine parsed(const Analysis& a, std::vector<std::string> tokens) {
    std::string error;
    std::optional<cli::CommandLine> line = cli::commandLineOf(a, std::move(tokens), error);
    if (!line) throw py::value_error(error);
    return std::move(*line);
}

py::dict resultDict(const Trace& subject, const Analysis& a, const AnalysisResult& result) {
    py::dict out;
    out["analysis"] = a.id;
    out["schema_version"] = a.schemaVersion;
    out["empty"] = result.empty;
    py::list tables;
    for (const ResultTable& t : renderedTables(subject, a, result))
        tables.append(tableColumns(t));
    out["tables"] = tables;
    return out;
}

// Runs `work` on a thread of its own while this one, without the GIL,
// looks at Python's signals every 50 ms: Ctrl+C cancels the token the work
// polls, and KeyboardInterrupt is raised once the work has stopped. (Only
// the main thread sees signals; elsewhere the work runs to its end.)
template <class Work>
auto cancellable(CancelToken& cancel, Work&& work) -> decltype(work()) {
    using Result = decltype(work());
    std::packaged_task<Result()> task(std::forward<Work>(work));
    std::future<Result> done = task.get_future();
    std::optional<py::error_already_set> interrupted;
    {
        const py::gil_scoped_release release;
        std::thread worker(std::move(task));
        while (done.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
            const py::gil_scoped_acquire gil;
            if (!interrupted && PyErr_CheckSignals() != 0) {
                interrupted.emplace();  // (fetches the KeyboardInterrupt)
                cancel.cancel();
            }
        }
        worker.join();
    }
    if (interrupted) throw std::move(*interrupted);
    return done.get();
}

AnalysisResult computeOn(OpenTrace& t, const Analysis& a, std::vector<std::string> tokens) {
    if (!a.readsOneTrace())
        throw py::value_error(a.id + " compares runs or ranks: gapscope." +
                              (a.input == AnalysisInput::TwoRuns ? "compare" : "ranks") +
                              "() runs it");
    tokens.push_back(cli::pathToken(t.path()));
    cli::CommandLine line = parsed(a, std::move(tokens));
    std::string error;
    CancelToken cancel;
    std::optional<AnalysisResult> result =
        cancellable(cancel, [&] { return t.compute(a, line, error, &cancel); });
    if (!result) raise(error);
    return std::move(*result);
}

std::shared_ptr<OpenTrace> openPath(const std::string& path, const std::string& run, bool cache,
                                    const std::string& cacheDir, const std::string& threads,
                                    std::optional<int64_t> process, bool ranksAsOne,
                                    const py::object& progress) {
    cli::LoadArgs args;
    args.path = path;
    args.paths = {path};
    args.options.run = run;
    const std::optional<ReadingMode> mode = readingModeNamed(threads);
    if (!mode) throw py::value_error("threads takes 'auto', '1' or '2'");
    args.options.mode = *mode;
    args.process = process;
    if (cache) {
        args.cache =
            std::make_unique<IndexCache>(cacheDir.empty() ? IndexCache::defaultDir() : cacheDir);
        args.options.cache = args.cache.get();
    }
    // The caller's progress callback at most every 50 ms and at each new
    // phase, with the GIL taken only then (the load runs on a thread of its
    // own: cancellable()).
    CancelToken cancel;
    args.options.cancel = &cancel;
    std::optional<py::error_already_set> failed;  // the callback's exception
    auto last = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    std::optional<LoadPhase> lastPhase;
    if (!progress.is_none())
        args.options.progress = [&](LoadPhase phase, uint64_t done, uint64_t total) {
            const auto now = std::chrono::steady_clock::now();
            const bool news = phase != lastPhase || done == total;
            if ((!news && now - last < std::chrono::milliseconds(50)) || cancel.isCancelled())
                return;
            last = now;
            lastPhase = phase;
            const py::gil_scoped_acquire gil;
            try {
                progress(phaseName(phase), done, total);
            } catch (py::error_already_set& e) {
                failed.emplace(std::move(e));
                cancel.cancel();
            }
        };
    cli::OpenedTrace opened = cancellable(cancel, [&] { return cli::openTrace(args, ranksAsOne); });
    if (failed) throw std::move(*failed);
    if (!opened.trace) raise(opened.error);
    return std::make_shared<OpenTrace>(opened.trace, path, opened.cacheNote, opened.notes);
}

py::list registryDescription() {
    py::list out;
    for (const Analysis& a : analysisRegistry().all()) {
        py::dict d;
        d["id"] = a.id;
        d["title"] = a.title;
        d["what"] = a.what;
        d["help"] = a.help;
        d["help_notes"] = a.helpNotes;
        d["input"] = a.input == AnalysisInput::Trace     ? "trace"
                     : a.input == AnalysisInput::TwoRuns ? "two_runs"
                                                         : "ranks";
        d["scoped"] = a.scoped;
        d["uses_gap_threshold"] = a.usesGapThreshold;
        d["uses_peaks"] = a.usesPeaks;
        d["takes_step_regex"] = a.takesStepRegex;
        d["has_gate"] = static_cast<bool>(a.gate);
        py::list tables;
        for (const TableShape& s : analysisShape(a))
            tables.append(s.table.id);
        d["tables"] = tables;
        std::string primary = a.primaryTable;
        if (primary.empty())
            for (const TableShape& s : analysisShape(a))
                if (s.table.id != "figures") {
                    primary = s.table.id;
                    break;
                }
        d["primary_table"] = primary;
        py::list options;
        for (const OptionSpec& o : a.options) {
            py::dict od;
            od["name"] = o.name;
            od["kind"] = o.kind == OptionSpec::Kind::Flag     ? "flag"
                         : o.kind == OptionSpec::Kind::Count  ? "count"
                         : o.kind == OptionSpec::Kind::Index  ? "index"
                         : o.kind == OptionSpec::Kind::Micros ? "micros"
                                                              : "texts";
            od["help"] = o.help;
            od["value_name"] = o.valueName;
            od["default"] = o.defaultValue ? py::object(py::int_(*o.defaultValue)) : py::none();
            options.append(od);
        }
        d["options"] = options;
        out.append(d);
    }
    return out;
}

}  // namespace

}  // namespace gapscope::python

using namespace gapscope;
using namespace gapscope::python;

PYBIND11_MODULE(_gapscope, m) {
    m.doc() = "The native half of gapscope (see help(gapscope)).";
    traceError() = py::exception<std::runtime_error>(m, "TraceError", PyExc_RuntimeError).release();

    py::class_<OpenTrace, std::shared_ptr<OpenTrace>>(m, "OpenTrace")
        .def_property_readonly("path", [](const OpenTrace& t) { return text(t.path()); })
        .def_property_readonly("cache_note", &OpenTrace::cacheNote)
        .def_property_readonly("notes", [](const OpenTrace& t) { return texts(t.notes()); })
        .def_property_readonly("slice_count",
                               [](const OpenTrace& t) { return t.trace().slices.size(); })
        .def(
            "compute",
            [](OpenTrace& t, const std::string& id, std::vector<std::string> tokens) {
                const Analysis& a = registered(id);
                const AnalysisResult result = computeOn(t, a, std::move(tokens));
                return resultDict(t.trace(), a, result);
            },
            py::arg("id"), py::arg("tokens"))
        .def(
            "compute_json",
            [](OpenTrace& t, const std::string& id, std::vector<std::string> tokens) {
                const Analysis& a = registered(id);
                const AnalysisResult result = computeOn(t, a, std::move(tokens));
                return toPython(analysisJson(t.trace(), a, result));
            },
            py::arg("id"), py::arg("tokens"))
        .def(
            "slices",
            [](const OpenTrace& t, const SliceQuery& q) { return sliceArrays(t.trace(), q); },
            py::arg("query"))
        .def("tracks", [](const OpenTrace& t) { return trackColumns(t.trace()); })
#ifdef GAPSCOPE_HAVE_RENDER
        .def(
            "render",
            [](OpenTrace& t, std::vector<std::string> tokens, const std::string& tracks, int width,
               int height, int scale, bool svg, bool dark, bool annotations) {
                // The range, step and gap threshold as `render` reads them.
                const Analysis& account = registered("account");  // (--range, --step, --min-gap-us)
                tokens.push_back(cli::pathToken(t.path()));
                cli::CommandLine line = parsed(account, std::move(tokens));
                cli::PictureRequest r;
                r.tracks = tracks;
                r.width = width;
                r.height = height;
                r.scale = scale;
                r.svg = svg;
                r.dark = dark;
                r.annotations = annotations;
                r.tracePath = t.path();
                r.minGapNs = line.args.minGapNs.value_or(kDefaultGapThresholdNs);
                std::string error = cli::stepWindowError(line.args, t.trace());
                if (!error.empty()) raise(error);
                r.range = line.args.range;
                // Kept for the process (never let go while Python runs).
                static const std::shared_ptr<void>* gui =
                    new std::shared_ptr<void>(cli::offscreenGui("gapscope"));
                (void)gui;
                cli::Picture picture;
                {
                    const py::gil_scoped_release release;
                    picture = cli::renderTracePicture(t.shared(), r);
                }
                if (picture.bytes.empty()) {
                    PyErr_SetObject(PyExc_ValueError, text(picture.error).ptr());
                    throw py::error_already_set();
                }
                return py::make_tuple(py::bytes(picture.bytes), texts(picture.warnings));
            },
            py::arg("tokens"), py::arg("tracks"), py::arg("width"), py::arg("height"),
            py::arg("scale"), py::arg("svg"), py::arg("dark"), py::arg("annotations"))
#endif
        ;

    py::class_<SliceQuery>(m, "SliceQuery")
        .def(py::init<>())
        .def_readwrite("kind", &SliceQuery::kind)
        .def_readwrite("name", &SliceQuery::name)
        .def_readwrite("name_regex", &SliceQuery::nameRegex)
        .def_readwrite("start", &SliceQuery::start)
        .def_readwrite("end", &SliceQuery::end)
        .def_readwrite("track", &SliceQuery::track)
        .def_readwrite("track_regex", &SliceQuery::trackRegex);
    m.def("open", &openPath, py::arg("path"), py::arg("run"), py::arg("cache"),
          py::arg("cache_dir"), py::arg("threads"), py::arg("process"), py::arg("ranks_as_one"),
          py::arg("progress"));
    m.def("analyses", &registryDescription);
    m.def(
        "compare",
        [](const std::string& id, std::vector<std::string> tokens, unsigned workers) {
            const Analysis& a = registered(id);
            if (a.readsOneTrace()) throw py::value_error(id + " reads one trace");
            cli::CommandLine line = parsed(a, std::move(tokens));
            std::ostringstream log;
            cli::ComparisonOutcome outcome;
            {
                const py::gil_scoped_release release;
                outcome = a.input == AnalysisInput::TwoRuns
                              ? cli::computeTwoRuns(a, line, log)
                              : cli::computeRankJob(a, line, workers, log);
            }
            if (!outcome.result) {
                std::string why = log.str();
                while (!why.empty() && why.back() == '\n')
                    why.pop_back();
                raise(why);
            }
            py::dict body = resultDict(outcome.subject, a, *outcome.result);
            std::string verdict;
            py::object status = py::none();
            if (a.gate) status = py::int_(a.gate(*outcome.result, verdict));
            return py::make_tuple(body, text(log.str()), status, text(verdict));
        },
        py::arg("id"), py::arg("tokens"), py::arg("workers"));
    m.def("write_file", [](const std::string& path, const py::bytes& bytes) {
        const std::string error = writeFileAtomically(path, std::string(bytes), Overwrite::Yes);
        if (!error.empty()) throw py::value_error(path + ": " + error);
    });
    m.attr("has_render") =
#ifdef GAPSCOPE_HAVE_RENDER
        true;
#else
        false;
#endif
}
