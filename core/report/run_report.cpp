#include "report/run_report.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string_view>

#include "format/nsight/nsight_reader.h"
#include "report/table.h"
#include "util/readable_units.h"

namespace gapscope {

namespace {

ResultTable annotationTable(const ReportContent& r) {
    ResultTable t;
    t.id = "annotations";
    t.title = "Annotations";
    t.columns = {{"kind", "kind", Unit::Text},
                 {"start_ns", "at", Unit::Time},
                 {"duration_ns", "duration", Unit::Duration},
                 {"on", "on", Unit::Text},
                 {"text", "text", Unit::Text}};
    for (const Annotation& a : r.annotations) {
        const std::string on =
            a.kind == Annotation::Kind::Slice ? a.slice + " (" + a.track + ")" : std::string();
        ResultRow row;
        row.cells = {
            std::string(annotationKindName(a.kind)), a.start,
            a.kind == Annotation::Kind::Marker ? ResultCell() : ResultCell(a.end - a.start),
            on.empty() ? ResultCell() : ResultCell(on), a.text};
        t.rows.push_back(std::move(row));
    }
    return t;
}

ResultTable factTable(const ReportContent& r) {
    ResultTable t;
    t.id = "facts";
    t.columns = {{"fact", "", Unit::Text}, {"value", "", Unit::Text}};
    for (const auto& [what, value] : r.facts) {
        ResultRow row;
        row.cells = {what, value};
        t.rows.push_back(std::move(row));
    }
    return t;
}

}  // namespace

std::string traceProducer(const Trace& t) {
    if (t.producer != Producer::NsightSystems) return producerName(t.producer);
    // Its version, as the export's metadata says.
    const auto info = t.metadata.find(std::string(nsight::kMetadataKey));
    const auto j = info == t.metadata.end() ? nlohmann::json()
                                            : nlohmann::json::parse(info->second, nullptr, false);
    return j.is_object() && j.contains("version") && j["version"].is_string()
               ? std::string(producerName(t.producer)) + " " + j["version"].get<std::string>()
               : producerName(t.producer);
}

std::vector<std::pair<std::string, std::string>> traceFacts(const Trace& t,
                                                            const std::string& name) {
    std::vector<std::pair<std::string, std::string>> f;
    f.push_back({"file", name});
    f.push_back({"producer", traceProducer(t)});
    f.push_back(
        {"size",
         readableBytes(static_cast<double>(t.fileSize)) +
             (t.decompressedSize && t.decompressedSize != t.fileSize
                  ? " (" + readableBytes(static_cast<double>(t.decompressedSize)) +
                        (t.inputFormat == InputFormat::ChromeJson ? " of JSON)" : " decompressed)")
                  : std::string())});
    f.push_back({"events", std::to_string(t.report.events)});
    f.push_back({"span", readableDuration(t.spanLength()) + " from " + std::to_string(t.spanStart) +
                             " ns"});
    std::string gpus;
    for (const GpuDevice& d : t.gpuDevices) {
        if (!gpus.empty()) gpus += ", ";
        gpus += "GPU " + std::to_string(d.index) + (d.name.empty() ? "" : " " + d.name);
    }
    f.push_back({"GPUs", gpus.empty() ? "none" : gpus});
    f.push_back({"processes", std::to_string(t.processes.size()) + " (" +
                                  std::to_string(t.tracks.size()) + " tracks)"});
    if (!t.report.warnings.empty())
        f.push_back({"import warnings", std::to_string(t.report.warnings.size())});
    return f;
}

std::string reportDocument(const ReportContent& r, OutputFormat format) {
    const std::string title = r.title.empty() ? "Gapscope report: " + r.traceName : r.title;
    const bool html = format == OutputFormat::Html;
    std::string out;
    auto heading = [&](int level, const std::string& text) {
        if (html) {
            out += "<h" + std::to_string(level) + ">" + htmlEscape(text) + "</h" +
                   std::to_string(level) + ">\n";
        } else {
            // Piece by piece: GCC 12 at -O3 warns (-Wrestrict, a known false
            // positive) on "literal" + std::string(...).
            out.append("\n").append(static_cast<size_t>(level), '#').append(" ");
            out.append(markdownEscape(text)).append("\n\n");
        }
    };
    if (html) {
        out += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>" +
               htmlEscape(title) +
               "</title>\n<style>body{font-family:system-ui,sans-serif;margin:2em;color:#222}"
               "table{border-collapse:collapse;margin-bottom:1.5em}"
               "th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left;"
               "vertical-align:top}th{background:#f0f0f0}"
               ".num{text-align:right;font-variant-numeric:tabular-nums}td.num{white-space:nowrap}"
               "img{max-width:100%;border:1px solid #ccc}</style></head><body>\n";
        heading(1, title);
    } else {
        out += "# " + markdownEscape(title) + "\n";
    }
    RenderOptions readable;
    readable.readable = true;
    readable.origin = r.origin;
    heading(2, "The trace");
    out += renderResult(factTable(r), format, readable);
    if (!r.summary.empty())
        out += html ? "<p>" + htmlEscape(r.summary) + "</p>\n" : markdownEscape(r.summary) + "\n";
    if (!r.pictures.empty()) heading(2, r.pictures.size() > 1 ? "The timelines" : "The timeline");
    for (const ReportPicture& p : r.pictures) {
        if (html) {
            const std::string width =
                p.width > 0 ? " width=\"" + std::to_string(p.width) + "\"" : "";
            out += "<p><img src=\"" + htmlEscape(p.url) + "\"" + width + " alt=\"" +
                   htmlEscape(p.caption) + "\"></p>\n<p>" + htmlEscape(p.caption) + "</p>\n";
        } else {
            out += "![" + markdownEscape(p.caption) + "](" + p.url + ")\n\n";
        }
    }
    for (const ResultTable& t : r.tables) {
        heading(2, t.title);
        out += renderResult(t, format, readable);
    }
    if (r.withAnnotations) {
        heading(2, "Annotations");
        if (r.annotations.empty()) {
            out += html ? "<p>None.</p>\n" : "None.\n";
        } else {
            out += renderResult(annotationTable(r), format, readable);
        }
    }
    if (html) out += "</body></html>\n";
    return out;
}

}  // namespace gapscope
