#include "loading/run_chooser.h"

#include <QDateTime>
#include <QInputDialog>
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

}  // namespace gapscope::ui
