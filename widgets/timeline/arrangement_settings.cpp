#include "timeline/arrangement_settings.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QFileInfo>
#include <QSettings>
#include <QStringList>
#include <unordered_map>

namespace gapscope::ui {

namespace {

// Every process, track and counter by a name unique in the trace: its
// display name, with its occurrence number after it for a name seen before.
struct Names {
    std::vector<QString> processes, tracks, counters;
    std::unordered_map<QString, uint32_t> processIndex, trackIndex, counterIndex;

    explicit Names(const Trace& t) {
        std::unordered_map<QString, int> seen;
        auto unique = [&seen](QString name) {
            const int n = ++seen[name];
            // A control character: no display name holds one, so "X#2" stays X#2's.
            return n == 1 ? name : name + QStringLiteral("\x1f%1").arg(n);
        };
        processes.reserve(t.processes.size());
        for (const Process& p : t.processes) {
            QString name = QString::fromStdString(p.displayName);
            if (!t.ranks.empty() && p.group < t.ranks.size())
                name = QStringLiteral("rank %1/").arg(t.ranks[p.group].rank) + name;
            processes.push_back(unique(name));
        }
        auto owner = [&](uint32_t p) {
            return p < processes.size() ? processes[p] : QStringLiteral("(global)");
        };
        for (const Track& tr : t.tracks)
            tracks.push_back(
                unique(owner(tr.process) + '/' + QString::fromStdString(tr.displayName)));
        for (const CounterSeries& c : t.counters) {
            const std::string_view name = t.str(c.name);
            counters.push_back(unique(owner(c.process) + QStringLiteral("/counter:") +
                                      QString::fromUtf8(name.data(), qsizetype(name.size()))));
        }
        for (uint32_t i = 0; i < processes.size(); ++i)
            processIndex.emplace(processes[i], i);
        for (uint32_t i = 0; i < tracks.size(); ++i)
            trackIndex.emplace(tracks[i], i);
        for (uint32_t i = 0; i < counters.size(); ++i)
            counterIndex.emplace(counters[i], i);
    }

    QString of(TrackItem i) const { return i.counter ? counters[i.index] : tracks[i.index]; }
    std::optional<TrackItem> item(const QString& name) const {
        if (const auto it = trackIndex.find(name); it != trackIndex.end())
            return TrackItem{false, it->second};
        if (const auto it = counterIndex.find(name); it != counterIndex.end())
            return TrackItem{true, it->second};
        return std::nullopt;
    }
};

QStringList namesOf(const std::vector<uint32_t>& indices, const std::vector<QString>& names) {
    QStringList out;
    for (const uint32_t i : indices)
        if (i < names.size()) out << names[i];
    return out;
}

std::vector<uint32_t> indicesOf(const QStringList& names,
                                const std::unordered_map<QString, uint32_t>& index) {
    std::vector<uint32_t> out;
    for (const QString& n : names)
        if (const auto it = index.find(n); it != index.end()) out.push_back(it->second);
    return out;
}

QString keyOf(const QString& tracePath) {
    const QByteArray path = QFileInfo(tracePath).absoluteFilePath().toUtf8();
    return QString::fromLatin1(
        QCryptographicHash::hash(path, QCryptographicHash::Sha1).toHex().left(20));
}

}  // namespace

QVariantMap arrangementToVariant(const Trace& trace, const TrackArrangement& a) {
    const Names n(trace);
    QVariantMap out;
    QStringList pinned, hidden;
    for (const TrackItem i : a.pinned)
        pinned << n.of(i);
    for (const TrackItem i : a.hidden)
        hidden << n.of(i);
    out["pinned"] = pinned;
    out["hidden"] = hidden;
    out["hiddenProcesses"] = namesOf(a.hiddenProcesses, n.processes);
    out["processOrder"] = namesOf(a.processOrder, n.processes);
    QStringList trackOrder;
    for (const auto& order : a.trackOrder)
        trackOrder << namesOf(order, n.tracks);
    out["trackOrder"] = trackOrder;
    out["collapsedProcesses"] = namesOf(a.collapsedProcesses, n.processes);
    out["collapsedTracks"] = namesOf(a.collapsedTracks, n.tracks);
    QVariantList ranks;
    for (const uint32_t r : a.collapsedRanks)
        if (r < trace.ranks.size()) ranks << QVariant::fromValue(trace.ranks[r].rank);
    out["collapsedRanks"] = ranks;
    return out;
}

TrackArrangement arrangementFromVariant(const Trace& trace, const QVariantMap& saved) {
    const Names n(trace);
    TrackArrangement a;
    for (const QString& name : saved.value("pinned").toStringList())
        if (const auto i = n.item(name)) a.pinned.push_back(*i);
    for (const QString& name : saved.value("hidden").toStringList())
        if (const auto i = n.item(name)) a.hidden.push_back(*i);
    a.hiddenProcesses = indicesOf(saved.value("hiddenProcesses").toStringList(), n.processIndex);
    a.processOrder = indicesOf(saved.value("processOrder").toStringList(), n.processIndex);
    // One list of every reordered track: each goes to its own process.
    for (const uint32_t tr : indicesOf(saved.value("trackOrder").toStringList(), n.trackIndex)) {
        const uint32_t p = trace.tracks[tr].process;
        if (p >= trace.processes.size()) continue;
        if (a.trackOrder.size() <= p) a.trackOrder.resize(p + 1);
        a.trackOrder[p].push_back(tr);
    }
    a.collapsedProcesses =
        indicesOf(saved.value("collapsedProcesses").toStringList(), n.processIndex);
    a.collapsedTracks = indicesOf(saved.value("collapsedTracks").toStringList(), n.trackIndex);
    for (const QVariant& v : saved.value("collapsedRanks").toList())
        for (uint32_t r = 0; r < trace.ranks.size(); ++r)
            if (trace.ranks[r].rank == v.toLongLong()) a.collapsedRanks.push_back(r);
    return a;
}

void saveArrangement(const QString& tracePath, const Trace& trace, const TrackArrangement& a) {
    if (tracePath.isEmpty()) return;
    QSettings settings;
    settings.beginGroup(QStringLiteral("arrangements"));
    const QString key = keyOf(tracePath);
    if (a.empty()) {
        settings.remove(key);
        return;
    }
    QVariantMap value = arrangementToVariant(trace, a);
    value["file"] = QFileInfo(tracePath).absoluteFilePath();
    value["saved"] = QDateTime::currentMSecsSinceEpoch();
    settings.setValue(key, value);
    // Forget the oldest: one entry per trace a person arranged, not forever.
    QStringList keys = settings.childKeys();
    if (keys.size() <= kRememberedArrangements) return;
    std::sort(keys.begin(), keys.end(), [&](const QString& x, const QString& y) {
        return settings.value(x).toMap().value("saved").toLongLong() <
               settings.value(y).toMap().value("saved").toLongLong();
    });
    for (qsizetype i = 0; i < keys.size() - kRememberedArrangements; ++i)
        settings.remove(keys[i]);
}

TrackArrangement loadArrangement(const QString& tracePath, const Trace& trace) {
    if (tracePath.isEmpty()) return {};
    QSettings settings;
    settings.beginGroup(QStringLiteral("arrangements"));
    return arrangementFromVariant(trace, settings.value(keyOf(tracePath)).toMap());
}

}  // namespace gapscope::ui
