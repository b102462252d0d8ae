#include <cmath>
#include <iostream>

#include "analysis/memory_usage.h"
#include "analysis_commands.h"
#include "cli_output.h"
#include "report/analysis_tables.h"
#include "report/result_json.h"

namespace gapscope::cli {

namespace {

constexpr const char* kHelp =
    "Usage: gapscope-cli memory TRACE [--format table|csv|md|json] [--step-regex RE]\n"
    "                   [--range START:END] [--step N]\n"
    "  Memory per device: Kineto [memory] events (Total Allocated / Total Reserved;\n"
    "  2021 Kineto's Bytes changes give a relative curve, their running sum), and\n"
    "  TensorFlow's Memory Usage counters. Peak allocated with its time, peak\n"
    "  reserved, the peak as a share of the device memory (deviceProperties), the\n"
    "  peak of each step and growth (least squares over >= 4 steps, R^2 >= 0.9).\n"
    "  Other counter series are listed as plain curves. --range / --step: the\n"
    "  per-step peaks and growth of the steps that start inside it (peaks stay\n"
    "  those of the whole trace).\n";

}  // namespace

int runMemory(int argc, char** argv) {
    if (printedHelp(argc, argv, kHelp)) return 0;
    int exitCode = 0;
    auto p = prepare("memory", argc, argv, {}, exitCode);
    if (!p) return exitCode;
    const Trace& t = *p->trace;
    std::vector<Step> steps = stepsInRange(t, p->args);
    const MemoryReport r = memoryUsage(t, steps);
    auto bytes = [](double v) { return static_cast<int64_t>(std::llround(v)); };
    if (p->args.format == OutputFormat::Json) {
        nlohmann::json devices = nlohmann::json::array();
        for (const DeviceMemory& d : r.devices) {
            const nlohmann::json perStep = resultRowsJson(memoryStepTable(d, steps));
            devices.push_back({{"device", d.device},
                               {"kind", d.gpu ? "gpu" : "cpu"},
                               {"relative", d.relative},
                               {"peak_allocated_bytes", bytes(d.peakAllocated)},
                               {"peak_time_ns", d.peakTime},
                               {"peak_reserved_bytes",
                                d.peakReserved ? nlohmann::json(bytes(*d.peakReserved)) : nullptr},
                               {"device_memory_bytes", orNull(d.deviceMemory)},
                               {"peak_share", orNull(d.peakShare)},
                               {"per_step_peak", perStep},
                               {"growth_bytes_per_step", orNull(d.growthPerStep)},
                               {"growth_r2", orNull(d.growthR2)},
                               {"series", std::string(t.str(t.counters[d.allocatedSeries].name))}});
        }
        nlohmann::json curves = nlohmann::json::array();
        for (const uint32_t c : r.otherCurves) {
            const CounterSeries& cs = t.counters[c];
            nlohmann::json j = {{"name", std::string(t.str(cs.name))}, {"points", cs.ts.size()}};
            if (!cs.values.empty()) {
                double lo = cs.values[0], hi = cs.values[0];
                for (const double v : cs.values)
                    lo = std::min(lo, v), hi = std::max(hi, v);
                j["min"] = lo;
                j["max"] = hi;
            }
            if (cs.process < t.processes.size()) j["process"] = t.processes[cs.process].displayName;
            curves.push_back(std::move(j));
        }
        printJson({{"devices", devices}, {"other_curves", curves}});
        return 0;
    }
    if (r.devices.empty()) {
        std::cout << "No memory events in this trace.\n";
        return 0;
    }
    printResult(memoryTable(r), p->args.format);
    return 0;
}

}  // namespace gapscope::cli
