#pragma once
// The report of one trace, as the viewer's File > Export Report writes it:
// a title, the trace's facts (file, producer, devices, span, events), the
// summary tables (report/run_summary), the annotated picture, and the
// annotations; or of two runs compared: both runs' facts, the verdict, both
// pictures and the comparison's tables. Markdown (the picture a file beside it) or a self-contained
// HTML page (the picture inline, or by reference for the PDF's renderer);
// everything from the trace is escaped.

#include <string>
#include <utility>
#include <vector>

#include "model/trace.h"
#include "report/annotations.h"
#include "report/run_summary.h"

namespace gapscope {

struct ReportPicture {
    std::string url;  // the image: a file name, a data: URL
    std::string caption;
    int width = 0;  // HTML: the <img> width in pixels; 0: its own
};

struct ReportContent {
    std::string traceName;  // the file name
    std::string title;      // "" : "Gapscope report: " and the file name
    std::vector<std::pair<std::string, std::string>> facts;  // (what, value)
    std::string summary;  // a paragraph after the facts (a comparison's verdict); "" for none
    std::vector<ResultTable> tables;  // shown as people read them
    std::vector<ReportPicture> pictures;
    std::vector<Annotation> annotations;
    bool withAnnotations = true;  // the Annotations section (a comparison's has none)
    TimeNs origin = 0;            // annotation times are shown from here
};

// The facts of a trace: file, producer, size, events, span, devices,
// processes and threads, import warnings.
std::vector<std::pair<std::string, std::string>> traceFacts(const Trace& trace,
                                                            const std::string& name);
// "PyTorch profiler (Kineto)", "TensorFlow / JAX profiler (XSpace as trace
// events)" or "Chrome Trace Event Format", from the trace's metadata.
std::string traceProducer(const Trace& trace);

// OutputFormat::Markdown or OutputFormat::Html.
std::string reportDocument(const ReportContent& report, OutputFormat format);

}  // namespace gapscope
