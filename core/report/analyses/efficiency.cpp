// How well the busy time is used (analysis/efficiency.h): per op
// signature, per step and GPU, and the roofs of each GPU.

#include "analysis/efficiency.h"

#include <cmath>

#include "report/analyses/builtin_analyses.h"
#include "report/scoped_efficiency.h"

namespace gapscope {
namespace {

constexpr double kTera = 1e12;

// FLOPs per ns of GPU time, in TFLOP/s (none for no time).
ResultCell teraPerSecond(double amount, double ns) {
    if (!(ns > 0)) return {};
    return amount / (ns * 1e-9) / kTera;
}

ResultCell wholeNumber(double v) {
    return static_cast<int64_t>(std::llround(v));
}

// A signature's part; none where it has none.
ResultCell partCell(std::string_view shapes, int part) {
    const std::string_view text = signaturePart(shapes, part);
    return text.empty() ? ResultCell() : ResultCell(std::string(text));
}

ResultTable signatureTable(const Trace& t, const EfficiencyResult& e) {
    ResultTable table;
    table.id = "signatures";
    table.title = "Op signatures";
    ResultColumn intensity{"intensity", "FLOPs/byte", Unit::Number};
    intensity.decimals = 2;
    ResultColumn tbps{"tbps", "TB/s", Unit::Number};
    tbps.decimals = 3;
    ResultColumn bound{"bound", "Bound by", Unit::Text};
    bound.labels = {{"compute", "compute"}, {"memory", "memory"}};
    // A PyTorch op's recorded inputs, an HLO op's result: a trace has one.
    auto part = [](const char* key, const char* title) {
        ResultColumn c{key, title, Unit::Text};
        c.sparse = true;
        return c;
    };
    table.columns = {{"name", "Op", Unit::Text},
                     part("input_dims", "Input dims"),
                     part("input_types", "Input types"),
                     part("concrete_inputs", "Concrete inputs"),
                     part("result_shape", "Result shape"),
                     {"flops_source", "FLOPs from", Unit::Text},
                     {"precision", "Peak of", Unit::Text},
                     {"count", "Count", Unit::Count},
                     {"flops", "FLOPs", Unit::Count},
                     {"bytes", "Bytes", Unit::Bytes},
                     intensity,
                     {"gpu_ns", "GPU", Unit::Duration},
                     {"median_ns", "Median", Unit::Duration},
                     {"tflops", "TFLOP/s", Unit::Number},
                     {"tflops_median", "TFLOP/s (median)", Unit::Number},
                     {"tflops_min", "TFLOP/s (slowest)", Unit::Number},
                     {"tflops_max", "TFLOP/s (fastest)", Unit::Number},
                     tbps,
                     {"roofline_tflops", "Roofline TFLOP/s", Unit::Number},
                     {"of_roofline", "Of roofline", Unit::Share},
                     bound,
                     {"device", "GPU", Unit::Count}};
    for (const SignatureEfficiency& s : e.signatures) {
        const OpCost& c = s.cost;
        const std::string_view shapes = t.str(s.shapes);
        const double n = static_cast<double>(s.count);
        ResultRow r;
        ResultCell roofline, ofRoofline;
        if (s.boundNs && s.busy > 0) {
            roofline = teraPerSecond(c.flops * n, *s.boundNs);
            ofRoofline = *s.boundNs / static_cast<double>(s.busy);
        }
        r.cells = {
            std::string(t.str(s.name)),
            partCell(shapes, 0),
            partCell(shapes, 1),
            partCell(shapes, 2),
            partCell(shapes, 3),
            std::string(costSourceName(c.flopsSource)),
            c.precision ? ResultCell(std::string(peakTypeName(*c.precision))) : ResultCell(),
            static_cast<int64_t>(s.count),
            wholeNumber(c.flops),
            c.bytes ? wholeNumber(*c.bytes) : ResultCell(),
            c.bytes && *c.bytes > 0 ? ResultCell(c.flops / *c.bytes) : ResultCell(),
            s.busy,
            s.medianBusy,
            teraPerSecond(c.flops * n, static_cast<double>(s.busy)),
            teraPerSecond(c.flops, static_cast<double>(s.medianBusy)),
            teraPerSecond(c.flops, static_cast<double>(s.maxBusy)),
            teraPerSecond(c.flops, static_cast<double>(s.minBusy)),
            c.bytes ? teraPerSecond(*c.bytes * n, static_cast<double>(s.busy)) : ResultCell(),
            roofline,
            ofRoofline,
            s.computeBound ? ResultCell(std::string(*s.computeBound ? "compute" : "memory"))
                           : ResultCell(),
            static_cast<int64_t>(s.device)};
        r.ref.kind = ResultRef::Kind::Slice;
        r.ref.slice = s.firstSlice;
        table.rows.push_back(std::move(r));
    }
    return table;
}

ResultTable stepTable(const EfficiencyResult& e) {
    ResultTable table;
    table.id = "steps";
    table.title = "Steps";
    table.columns = {{"step", "Step", Unit::Count},
                     {"device", "GPU", Unit::Count},
                     {"window_ns", "GPU window", Unit::Duration},
                     {"flops", "FLOPs", Unit::Count},
                     {"tflops", "TFLOP/s", Unit::Number},
                     {"precision", "Peak of", Unit::Text},
                     {"mfu", "MFU", Unit::Share},
                     {"kernel_ns", "Compute kernels", Unit::Duration},
                     {"tensor_core_share", "On Tensor Cores", Unit::Share}};
    for (const StepEfficiency& s : e.steps) {
        ResultRow r;
        r.cells = {s.number,
                   static_cast<int64_t>(s.device),
                   s.window.length(),
                   wholeNumber(s.flops),
                   teraPerSecond(s.flops, static_cast<double>(s.window.length())),
                   s.precision ? ResultCell(std::string(peakTypeName(*s.precision))) : ResultCell(),
                   cellOf(s.mfu),
                   s.kernelNs,
                   s.kernelNs > 0 ? ResultCell(static_cast<double>(s.tensorCoreNs) /
                                               static_cast<double>(s.kernelNs))
                                  : ResultCell()};
        r.ref.kind = ResultRef::Kind::Range;
        r.ref.range = s.window;
        table.rows.push_back(std::move(r));
    }
    return table;
}

ResultTable collectiveTable(const Trace& t, const EfficiencyResult& e) {
    ResultTable table;
    table.id = "collectives";
    table.title = "Collectives";
    ResultColumn rank{"rank", "Rank", Unit::Count};
    rank.sparse = true;
    table.columns = {{"device", "GPU", Unit::Count},
                     rank,
                     {"collective", "Collective", Unit::Text},
                     {"group_size", "Ranks", Unit::Count},
                     {"bytes", "Size", Unit::Bytes},
                     {"count", "Count", Unit::Count},
                     {"total_ns", "Total", Unit::Duration},
                     {"median_ns", "Median", Unit::Duration},
                     {"algbw_gbps", "Algorithm GB/s", Unit::Number},
                     {"busbw_gbps", "Bus GB/s", Unit::Number},
                     {"of_link", "Of link", Unit::Share}};
    auto gbps = [](const std::optional<double>& v) {
        return v ? ResultCell(*v / 1e9) : ResultCell();
    };
    for (const CollectiveEfficiency& c : e.collectives) {
        ResultCell rankCell;
        if (!t.ranks.empty())
            for (const GpuDevice& d : t.gpuDevices)
                if (d.index == c.device && d.group < t.ranks.size())
                    rankCell = t.ranks[d.group].rank;
        ResultRow r;
        r.cells = {static_cast<int64_t>(c.device),
                   rankCell,
                   c.name,
                   c.groupSize,
                   cellOf(c.bytes),
                   static_cast<int64_t>(c.count),
                   c.total,
                   c.median,
                   gbps(c.algBandwidth),
                   gbps(c.busBandwidth),
                   cellOf(c.ofLink)};
        r.ref.kind = ResultRef::Kind::Slice;
        r.ref.slice = c.firstSlice;
        table.rows.push_back(std::move(r));
    }
    return table;
}

ResultCell peakCell(const std::optional<DevicePeaks>& p, PeakType type) {
    if (!p || !p->peak(type)) return {};
    return *p->peak(type) / kTera;
}

ResultTable deviceTable(const EfficiencyResult& e) {
    ResultTable table;
    table.id = "devices";
    table.title = "GPUs and their roofs";
    ResultColumn source{"roofs_from", "Roofs from", Unit::Text};
    source.labels = {
        {"table", "the GPU table"}, {"given", "given (--peak, Settings)"}, {"unknown", "unknown"}};
    table.columns = {{"device", "GPU", Unit::Count},
                     {"name", "Name in the trace", Unit::Text},
                     {"matched", "Matched", Unit::Text},
                     source,
                     {"memory_gbps", "Memory GB/s", Unit::Number},
                     {"link_gbps", "Link GB/s (one way)", Unit::Number},
                     {"bf16_tflops", "BF16 TFLOP/s", Unit::Number},
                     {"fp16_tflops", "FP16 TFLOP/s", Unit::Number},
                     {"tf32_tflops", "TF32 TFLOP/s", Unit::Number},
                     {"fp32_tflops", "FP32 TFLOP/s", Unit::Number},
                     {"fp8_tflops", "FP8 TFLOP/s", Unit::Number},
                     {"fp64_tflops", "FP64 TFLOP/s", Unit::Number}};
    for (const DeviceRoofs& d : e.devices) {
        ResultRow r;
        const auto& p = d.peaks;
        r.cells = {
            static_cast<int64_t>(d.device),
            d.traceName,
            p && !p->name.empty() ? ResultCell(p->name) : ResultCell(),
            std::string(d.given ? "given"
                        : p     ? "table"
                                : "unknown"),
            p && p->memoryBandwidth > 0 ? ResultCell(p->memoryBandwidth / 1e9) : ResultCell(),
            p && p->linkBandwidth > 0 ? ResultCell(p->linkBandwidth / 1e9) : ResultCell(),
            peakCell(p, PeakType::Bf16),
            peakCell(p, PeakType::Fp16),
            peakCell(p, PeakType::Tf32),
            peakCell(p, PeakType::Fp32),
            peakCell(p, PeakType::Fp8),
            peakCell(p, PeakType::Fp64)};
        table.rows.push_back(std::move(r));
    }
    return table;
}

}  // namespace

Analysis efficiencyAnalysis() {
    Analysis a;
    a.id = "efficiency";
    a.title = "Efficiency";
    a.what =
        "how well the busy time is used: FLOPs and bytes per op\nsignature, TFLOP/s, TB/s, "
        "the roofline, MFU per step,\ncollectives' bus bandwidth";
    a.help =
        "Each op's FLOPs and bytes, from the profiler's own count (with_flops) or from\n"
        "its recorded shapes (record_shapes) by one formula per family of ops (GEMMs,\n"
        "convolutions, attention, norms, element-wise, reductions, embeddings; as\n"
        "TraceLens defines them), given to the GPU work it launched. Per op signature\n"
        "(name, input dims, types and concrete inputs): count, FLOPs and bytes per op,\n"
        "arithmetic intensity, GPU time (the union of its kernels), achieved TFLOP/s\n"
        "and TB/s, the roofline at its intensity and the share of it reached, and\n"
        "whether compute or memory bounds it. Per step and GPU: MFU (its FLOPs over\n"
        "its GPU window at the peak of the type that did most of its matrix work) and\n"
        "the share of compute-kernel time on Tensor Cores. Per collective (kind, size,\n"
        "group) and GPU: the algorithm and bus bandwidth as NCCL's tests define them,\n"
        "and the bus bandwidth's share of the GPU's link. Roofs come from the GPU\n"
        "table (resources/hardware/gpu_peaks.json) matched on the trace's device\n"
        "properties, or from --peak. An op counts when it starts inside the range.";
    a.options = {{"top", OptionSpec::Kind::Count, "the N signatures with the most GPU time"}};
    a.usesPeaks = true;
    a.textColumns["signatures"] = {"name",   "input_dims", "result_shape", "precision",   "count",
                                   "gpu_ns", "tflops",     "tbps",         "of_roofline", "bound"};
    a.textColumns["devices"] = {"device",      "name",        "matched",    "roofs_from",
                                "memory_gbps", "bf16_tflops", "fp32_tflops"};
    a.summary = {{"figures", "efficiency", "Efficiency", {"mfu", "tflops", "costed_share"}, false},
                 {"signatures",
                  "efficiency_signatures",
                  "Top op signatures by GPU time",
                  {"name", "input_dims", "count", "gpu_ns", "tflops", "of_roofline", "bound"},
                  true}};
    a.compute = [](const Trace& t, const Scope& scope, const AnalysisOptions& o) {
        // A copy: --top cuts its signatures.
        EfficiencyResult e = *scopedEfficiency(t, scope);
        AnalysisResult r;
        // MFU over every step and GPU: their FLOPs over their windows at each peak.
        double peakWork = 0, stepFlops = 0;
        for (const StepEfficiency& s : e.steps)
            if (s.peak) {
                peakWork += *s.peak * static_cast<double>(s.window.length()) * 1e-9;
                stepFlops += s.flops;
            }
        r.addFigure({"flops", "FLOPs", Unit::Count}, wholeNumber(e.flops));
        r.addFigure({"costed_gpu_ns", "GPU time of ops with FLOPs", Unit::Duration}, e.costedBusy);
        r.addFigure({"gpu_busy_ns", "GPU busy", Unit::Duration}, e.gpuBusy);
        ResultColumn share{"costed_share", "GPU busy with FLOPs", Unit::Share};
        share.of = "gpu_busy_ns";
        r.addFigure(share, e.gpuBusy > 0 ? ResultCell(static_cast<double>(e.costedBusy) /
                                                      static_cast<double>(e.gpuBusy))
                                         : ResultCell());
        r.addFigure({"tflops", "TFLOP/s (ops with FLOPs)", Unit::Number},
                    teraPerSecond(e.flops, static_cast<double>(e.costedBusy)));
        ResultColumn mfu{"mfu", "MFU", Unit::Share};
        mfu.of = "the steps' GPU windows at the peak";
        r.addFigure(mfu, peakWork > 0 ? ResultCell(stepFlops / peakWork) : ResultCell());
        r.addFigure({"uncosted_ops", "Ops of a modelled kind whose shapes do not say", Unit::Count},
                    static_cast<int64_t>(e.uncostedOps));
        if (const auto top = o.value("top"); top && e.signatures.size() > static_cast<size_t>(*top))
            e.signatures.resize(static_cast<size_t>(*top));
        r.tables.push_back(signatureTable(t, e));
        r.tables.push_back(stepTable(e));
        r.tables.push_back(collectiveTable(t, e));
        r.tables.push_back(deviceTable(e));
        if (e.signatures.empty() && e.collectives.empty())
            r.empty = scope.nothing("ops with recorded shapes or FLOPs, nor collectives,");
        return r;
    };
    return a;
}

}  // namespace gapscope
