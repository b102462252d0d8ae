#pragma once
// Runs ../shared/tools/gen_trace.py for a test: a generated trace and its
// ground-truth sidecar.

#include <QString>
#include <QStringList>
#include <nlohmann/json.hpp>

namespace gapscope::test {

struct Generated {
    QString trace;         // the trace file
    nlohmann::json truth;  // the parsed --truth sidecar
    QString error;         // empty on success
};

// gen_trace.py OPTIONS --out DIR/NAME --truth DIR/NAME.truth.json --quiet.
Generated generateTrace(const QString& dir, const QString& name, const QStringList& options);

// A generated job: tests/tools/make_rank_set.py --gen gen_trace.py --out DIR
// OPTIONS. Its rank files in rank order, or none with why in `error`.
QStringList makeRankSet(const QString& dir, const QStringList& options, QString* error);

}  // namespace gapscope::test
