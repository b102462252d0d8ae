#include "analysis/rank_outliers.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "analysis/rank_totals.h"

namespace gapscope {

const char* rankFigureName(RankFigure f) {
    switch (f) {
        case RankFigure::StepTime:
            return "step_time";
        case RankFigure::BusyShare:
            return "busy_share";
        case RankFigure::Wait:
            return "wait";
    }
    return "";
}

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::optional<double> medianOfPresent(const std::vector<std::optional<double>>& values) {
    std::vector<double> present;
    for (const auto& v : values)
        if (v && std::isfinite(*v)) present.push_back(*v);
    if (present.empty()) return std::nullopt;
    return median(std::move(present));
}

}  // namespace

std::vector<std::optional<double>> modifiedZScores(
    const std::vector<std::optional<double>>& values) {
    std::vector<std::optional<double>> out(values.size());
    std::vector<double> present;
    for (const auto& v : values)
        if (v && std::isfinite(*v)) present.push_back(*v);
    if (present.size() < 4) return out;
    const double m = median(present);
    std::vector<double> deviations;
    double sum = 0;
    for (const double v : present) {
        deviations.push_back(std::fabs(v - m));
        sum += std::fabs(v - m);
    }
    const double mad = median(deviations);
    const double meanAd = sum / double(present.size());
    for (size_t i = 0; i < values.size(); ++i) {
        if (!values[i] || !std::isfinite(*values[i])) continue;
        const double d = *values[i] - m;
        if (mad > 0)
            out[i] = 0.6745 * d / mad;
        else if (meanAd > 0)
            out[i] = d / (1.253314 * meanAd);
        else
            out[i] = 0.0;
    }
    return out;
}

std::vector<RankOutlier> rankOutliers(const std::vector<const RankFigures*>& ranks) {
    const size_t n = ranks.size();
    // [figure][rank]
    std::array<std::vector<std::optional<double>>, 3> values;
    for (auto& v : values)
        v.resize(n);
    for (size_t i = 0; i < n; ++i) {
        if (!ranks[i] || ranks[i]->steps.empty()) continue;
        const RankTotals t = rankTotals(*ranks[i]);
        const auto steps = static_cast<double>(ranks[i]->steps.size());
        values[0][i] = double(t.duration) / steps;
        if (t.gpuTime > 0) values[1][i] = double(t.busy) / double(t.gpuTime);
        size_t waited = 0;
        for (const RankStep& s : ranks[i]->steps)
            waited += s.wait.has_value();
        if (waited) values[2][i] = double(t.wait) / double(waited);
    }
    std::vector<RankOutlier> out(n);
    constexpr RankFigure kFigures[] = {RankFigure::StepTime, RankFigure::BusyShare,
                                       RankFigure::Wait};
    for (size_t f = 0; f < 3; ++f) {
        const auto z = modifiedZScores(values[f]);
        const std::optional<double> m = medianOfPresent(values[f]);
        const double floor = std::max(
            m ? kOutlierShareOfMedian * std::fabs(*m) : 0.0,
            kFigures[f] == RankFigure::BusyShare ? kOutlierMinimumShare : kOutlierMinimumNs);
        for (size_t i = 0; i < n; ++i) {
            if (!z[i]) continue;
            const bool apart =
                std::fabs(*z[i]) > kOutlierScore && std::fabs(*values[f][i] - *m) >= floor;
            RankOutlier& o = out[i];
            // The figure it stands apart in (the furthest of those), else
            // the furthest score; the first of the three on a tie.
            const bool better = !o.score || (apart && !o.outlier) ||
                                (apart == o.outlier && std::fabs(*z[i]) > std::fabs(*o.score));
            if (better) o = {z[i], kFigures[f], apart};
        }
    }
    return out;
}

}  // namespace gapscope
