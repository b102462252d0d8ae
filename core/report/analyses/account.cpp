// The GPU time account (analysis/gpu_time_account.h): each GPU's time, its
// busy parts and its idle by cause, adding up; what the Overview and the
// summary lead with.

#include "analysis/gpu_time_account.h"
#include "report/analyses/builtin_analyses.h"
#include "report/analysis_tables.h"

namespace gapscope {

Analysis accountAnalysis() {
    Analysis a;
    a.id = "account";
    a.title = "GPU time";
    a.what =
        "the GPU time account: each GPU's time (step time or\nactive span), busy and its parts, "
        "idle by cause";
    a.help =
        "Where each GPU's time goes. Its time is its step time (the lead-ins and GPU\n"
        "windows of its rank's steps) or, without steps of its own, its active span;\n"
        "busy is computation, exposed communication and exposed memcpy; idle is split\n"
        "by the cause of its gaps (input, synchronization, communication, host, other)\n"
        "and the short gaps. The parts add up to the time. The figures are all GPUs'\n"
        "together. --step N keeps that step, --range the steps that start inside it.";
    a.usesGapThreshold = true;
    a.summary = {{"gpus", "gpus", "GPU time", {}, false}};
    a.compute = [](const Trace& t, const Scope& scope, const AnalysisOptions&) {
        StepOptions options = scope.stepOptions();
        if (scope.step && !scope.range) options.onlyNumber = *scope.step;
        const TimeAccount account = timeAccountOf(t, options);
        AnalysisResult r;
        TimeNs busy = 0;
        for (const GpuTimeAccount& d : account.devices)
            busy += d.busy();
        const TimeNs time = account.time();
        r.addFigure({"denominator", "Time over", Unit::Text},
                    account.devices.empty()
                        ? ResultCell()
                        : ResultCell(std::string(denominatorName(account.denominatorOfAll()))));
        r.addFigure({"time_ns", "GPUs' time", Unit::Duration}, time);
        r.addFigure({"busy_ns", "Busy", Unit::Duration}, busy);
        ResultColumn share{"busy_share", "Busy", Unit::Share};
        share.of = "time_ns";
        r.addFigure(share, time > 0 ? ResultCell(double(busy) / double(time)) : ResultCell());
        r.addFigure({"idle_ns", "Idle", Unit::Duration}, time - busy);
        ResultColumn idleShare{"idle_share", "Idle", Unit::Share};
        idleShare.of = "time_ns";
        r.addFigure(idleShare,
                    time > 0 ? ResultCell(double(time - busy) / double(time)) : ResultCell());
        for (size_t c = 0; c < kGapCauseCount; ++c) {
            const GapCause cause = static_cast<GapCause>(c);
            ResultColumn idle{"idle_by_cause." + std::string(gapCauseName(cause)),
                              "Idle: " + std::string(gapCauseName(cause)), Unit::Duration};
            idle.of = "time_ns";
            r.addFigure(idle, account.idle(cause));
        }
        TimeNs idleShort = 0, exposedComm = 0;
        for (const GpuTimeAccount& d : account.devices) {
            idleShort += d.idleShort;
            exposedComm += d.exposedComm;
        }
        ResultColumn shortGaps{"idle_short_ns", "Idle: short gaps", Unit::Duration};
        shortGaps.of = "time_ns";
        r.addFigure(shortGaps, idleShort);
        ResultColumn comm{"exposed_comm_ns", "Exposed communication", Unit::Duration};
        comm.of = "time_ns";
        r.addFigure(comm, exposedComm);
        r.tables.push_back(accountTable(account, timeBreakdowns(t, options.window)));
        if (account.devices.empty()) r.empty = scope.nothing("GPU activity");
        return r;
    };
    return a;
}

}  // namespace gapscope
