// Trace Health: what the import repaired, dropped or found missing
// (analysis/trace_health.h).

#include "analysis/analysis_index.h"
#include "analysis/trace_health.h"
#include "report/analyses/builtin_analyses.h"
#include "report/analysis_tables.h"

namespace gapscope {

Analysis healthAnalysis() {
    Analysis a;
    a.id = "health";
    a.title = "Trace Health";
    a.what =
        "what the import repaired, dropped or found missing:\nevery check with its count, what it "
        "means and its\nfirst instances";
    a.help =
        "What the import repaired, dropped or found missing, every check with its\n"
        "severity (ok, info, warning: some figure is a lower bound or some events\n"
        "are left out, error: the file is cut short), its count, the first instance\n"
        "and what it means for the numbers; then the first instances of each check\n"
        "found (start, duration, name, track). The Health panel shows the same.\n"
        "Exit status 0 whatever it finds. About the whole trace.";
    a.scoped = false;
    a.takesStepRegex = false;
    a.compute = [](const Trace& t, const Scope& scope, const AnalysisOptions&) {
        const AnalysisIndex* index = scope.index;
        const TraceHealth health =
            index ? traceHealth(t, &index->launches(), &index->stepWindows()) : traceHealth(t);
        int64_t warnings = 0, notes = 0;
        for (const HealthCheck& c : health.checks) {
            warnings +=
                c.severity == HealthSeverity::Warning || c.severity == HealthSeverity::Error;
            notes += c.severity == HealthSeverity::Info;
        }
        AnalysisResult r;
        r.addFigure({"warnings", "Checks that found missing or cut events", Unit::Count}, warnings);
        r.addFigure({"notes", "Checks that found what the import repaired", Unit::Count}, notes);
        r.tables.push_back(healthTable(t, health));
        r.tables.push_back(healthInstancesTable(t, health));
        return r;
    };
    return a;
}

}  // namespace gapscope
