#pragma once
// Running an independent reference script of tests/tools on a trace, and
// comparing its floating-point figures.

#include <QStringList>
#include <nlohmann/json.hpp>

namespace gapscope::test {

// python3 tests/tools/SCRIPT ARGS...; its JSON output. Fails the running
// test (and returns null) when the script fails.
nlohmann::json runReference(const QString& script, const QStringList& args);

// Equal within 1e-9 relative (1e-9 absolute near zero).
bool nearlyEqual(double a, double b);

}  // namespace gapscope::test
