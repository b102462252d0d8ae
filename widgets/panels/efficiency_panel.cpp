#include "panels/efficiency_panel.h"

#include <QTabWidget>

#include "panels/roofline_chart.h"
#include "report/result_table.h"

namespace gapscope::ui {

namespace {

const Analysis& efficiencyAnalysis() {
    return *analysisRegistry().find("efficiency");
}

double real(const ResultCell& cell) {
    if (const auto* d = std::get_if<double>(&cell)) return *d;
    if (const auto* i = std::get_if<int64_t>(&cell)) return static_cast<double>(*i);
    return 0;
}

const ResultTable* tableOf(const std::vector<std::pair<std::string, ResultRows>>& tables,
                           std::string_view id) {
    for (const auto& [tid, rows] : tables)
        if (tid == id) return rows.result.get();
    return nullptr;
}

// A cell as the tables write it.
QString shown(const ResultTable& t, size_t row, std::string_view key) {
    const int c = t.column(key);
    if (c < 0) return {};
    return QString::fromStdString(
        cellText(t.rows[row].cells[size_t(c)], t.columns[size_t(c)], true, 0));
}

}  // namespace

EfficiencyPanel::EfficiencyPanel(AnalysisSession* session, QWidget* parent)
    : RegistryPanel(session, efficiencyAnalysis(), parent), roofline_(new RooflineChart(this)) {
    tabs()->addTab(roofline_, tr("Roofline"));
    connect(roofline_, &RooflineChart::pointClicked, session, &AnalysisSession::navigate);
}

void EfficiencyPanel::clearContents() {
    RegistryPanel::clearContents();
    roofline_->setData({}, std::nullopt);
}

void EfficiencyPanel::presented(const std::vector<std::pair<std::string, ResultRows>>& tables) {
    std::vector<RooflinePoint> points;
    if (const ResultTable* s = tableOf(tables, "signatures")) {
        for (size_t r = 0; r < s->rows.size(); ++r) {
            RooflinePoint p;
            p.intensity = real(s->at(r, "intensity"));
            p.tflops = real(s->at(r, "tflops"));
            p.time = integerOr(s->at(r, "gpu_ns"));
            const std::string bound = textOr(s->at(r, "bound"));
            p.bound = bound == "compute"  ? RooflinePoint::Bound::Compute
                      : bound == "memory" ? RooflinePoint::Bound::Memory
                                          : RooflinePoint::Bound::None;
            // A PyTorch op's input dims, or an HLO op's result shape.
            const std::string dims = textOr(s->at(r, "input_dims"));
            p.label =
                shown(*s, r, "name") + QStringLiteral(" ") +
                QString::fromStdString(dims.empty() ? textOr(s->at(r, "result_shape")) : dims);
            p.detail =
                tr("%1 × %2 · %3 TFLOP/s · %4 FLOPs/byte · %5 of its roofline (%6) · %7")
                    .arg(shown(*s, r, "count"), shown(*s, r, "precision"), shown(*s, r, "tflops"),
                         shown(*s, r, "intensity"), shown(*s, r, "of_roofline"),
                         shown(*s, r, "bound"), shown(*s, r, "gpu_ns"));
            p.target = navTargetOf(s->rows[r].ref);
            points.push_back(std::move(p));
        }
    }
    std::optional<RooflineRoofs> roofs;
    if (const ResultTable* d = tableOf(tables, "devices"); d && !d->rows.empty()) {
        // The first GPU with roofs: a trace's GPUs are alike.
        for (size_t r = 0; r < d->rows.size() && !roofs; ++r) {
            if (std::holds_alternative<std::monostate>(d->at(r, "memory_gbps"))) continue;
            RooflineRoofs f;
            f.device = shown(*d, r, "matched");
            if (f.device.isEmpty()) f.device = shown(*d, r, "name");
            f.memoryTBps = real(d->at(r, "memory_gbps")) / 1000.0;
            // The roofs the figures are held against (fp16's is bf16's, and
            // stands for it where the GPU has no bf16: a V100).
            const bool bf16 = real(d->at(r, "bf16_tflops")) > 0;
            for (const auto& [key, name] :
                 {std::pair{"fp8_tflops", "FP8"},
                  {bf16 ? "bf16_tflops" : "fp16_tflops", bf16 ? "BF16" : "FP16"},
                  {"fp32_tflops", "FP32"}}) {
                const double v = real(d->at(r, key));
                if (v > 0) f.peaks.emplace_back(QString::fromLatin1(name), v);
            }
            roofs = std::move(f);
        }
    }
    roofline_->setData(std::move(points), std::move(roofs));
}

}  // namespace gapscope::ui
