#include "analysis/rank_outliers.h"

#include <algorithm>
#include <cmath>

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

std::vector<RankOutlier> rankOutliers(const std::vector<RankTotals>& ranks,
                                      const std::vector<size_t>& stepCounts) {
    const size_t n = ranks.size();
    std::vector<std::optional<double>> stepTime(n), busy(n), wait(n);
    for (size_t i = 0; i < n; ++i) {
        const size_t steps = i < stepCounts.size() ? stepCounts[i] : 0;
        if (steps == 0) continue;
        stepTime[i] = double(ranks[i].duration) / double(steps);
        if (ranks[i].gpuTime > 0) busy[i] = double(ranks[i].busy) / double(ranks[i].gpuTime);
        wait[i] = double(ranks[i].wait) / double(steps);
    }
    const auto zStep = modifiedZScores(stepTime), zBusy = modifiedZScores(busy),
               zWait = modifiedZScores(wait);
    std::vector<RankOutlier> out(n);
    for (size_t i = 0; i < n; ++i) {
        // The furthest from the median; the first of the three on a tie.
        auto consider = [&](const std::optional<double>& z, RankFigure f) {
            if (z && (!out[i].score || std::fabs(*z) > std::fabs(*out[i].score))) out[i] = {z, f};
        };
        consider(zStep[i], RankFigure::StepTime);
        consider(zBusy[i], RankFigure::BusyShare);
        consider(zWait[i], RankFigure::Wait);
    }
    return out;
}

}  // namespace gapscope
