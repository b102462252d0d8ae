#include "loading/run_chooser.h"

#include <QDateTime>
#include <QFileInfo>
#include <QInputDialog>
#include <QLocale>
#include <QStringList>

#include "loader/profile_folder.h"

namespace gapscope::ui {

RunChoice chooseProfileRun(QWidget* parent, const QString& folder, const QString& run,
                           bool interactive) {
    const ProfileRuns runs = findProfileRuns(folder.toStdString());
    std::string why;
    const ProfileRun* chosen = chooseRun(runs, run.toStdString(), why);
    if (!chosen) return {{}, folder + QStringLiteral(": ") + QString::fromStdString(why)};
    if (!run.isEmpty() || runs.runs.size() == 1 || !interactive)
        return {QString::fromStdString(chosen->folder), {}};
    QStringList items;
    for (const ProfileRun& r : runs.runs) {
        const QDateTime when = QDateTime::fromMSecsSinceEpoch(r.newestMtimeNs / 1'000'000);
        items << QObject::tr("%1 — %n host(s), %2", nullptr, static_cast<int>(r.files.size()))
                     .arg(QString::fromStdString(r.name),
                          QLocale().toString(when, QLocale::ShortFormat));
    }
    // Two runs may read the same ("X" and "plugins/profile/X"): their folders tell them apart.
    const QStringList plain = items;
    for (qsizetype i = 0; i < items.size(); ++i)
        if (plain.count(plain[i]) > 1)
            items[i] += QStringLiteral(" (%1)").arg(
                QString::fromStdString(runs.runs[static_cast<size_t>(i)].folder));
    bool ok = false;
    const QString picked = QInputDialog::getItem(
        parent, QObject::tr("Open Profile Run"),
        QObject::tr("%1 holds %2 profile runs. Open:").arg(folder).arg(runs.runs.size()), items, 0,
        false, &ok);
    if (!ok) return {};
    return {QString::fromStdString(runs.runs[static_cast<size_t>(items.indexOf(picked))].folder),
            {}};
}

int chooseProfilerCycle(QWidget* parent, const std::vector<QStringList>& cycles, bool interactive) {
    const int newest = static_cast<int>(cycles.size()) - 1;
    if (!interactive || cycles.size() <= 1) return newest;
    QStringList items;
    for (int i = newest; i >= 0; --i) {
        const QStringList& files = cycles[static_cast<size_t>(i)];
        qint64 bytes = 0;
        for (const QString& f : files)
            bytes += QFileInfo(f).size();
        const QString what = files.size() == 1 ? QFileInfo(files.front()).fileName()
                                               : QObject::tr("%1 ranks").arg(files.size());
        items << QObject::tr("cycle %1 — %2, %3")
                     .arg(i + 1)
                     .arg(what, QLocale().formattedDataSize(bytes));
    }
    const bool ranks = cycles.front().size() > 1;
    bool ok = false;
    const QString picked = QInputDialog::getItem(
        parent, QObject::tr("Open a Profiler Cycle"),
        ranks ? QObject::tr("These files are %1 cycles of %2 ranks, one after another, not "
                            "%3 ranks. Open the ranks of:")
                    .arg(cycles.size())
                    .arg(cycles.front().size())
                    .arg(cycles.size() * cycles.front().size())
              : QObject::tr("These %1 files are the cycles of one profiler (one process, one "
                            "after another), not the ranks of a job. Open:")
                    .arg(cycles.size()),
        items, 0, false, &ok);
    if (!ok) return -1;
    return newest - static_cast<int>(items.indexOf(picked));
}

}  // namespace gapscope::ui
