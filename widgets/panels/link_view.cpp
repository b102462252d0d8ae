#include "panels/link_view.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <memory>

#include "util/symbol_names.h"

namespace gapscope::ui {

QString sliceLink(uint32_t slice, const QString& text) {
    return QStringLiteral("<a href='slice:%1'>%2</a>").arg(slice).arg(text.toHtmlEscaped());
}

QString symbolLink(uint32_t slice, std::string_view name, const std::string& shown) {
    const QString full = QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
    const std::string shortName = shown.empty() ? shortSymbolName(name) : shown;
    QString text = QString::fromStdString(shortName);
    // Cut in the middle: the end tells kernels apart.
    if (text.size() > 70) text = text.left(40) + QStringLiteral("…") + text.right(29);
    // Qt's rich text takes a tooltip from a span's title (entities decoded),
    // not from a link's.
    return QStringLiteral("<span title=\"%3\"><a href='slice:%1'>%2</a></span>")
        .arg(slice)
        .arg(text.toHtmlEscaped(), full.toHtmlEscaped());
}

QString rangeLink(Interval range, const QString& text) {
    return QStringLiteral("<a href='range:%1:%2'>%3</a>")
        .arg(range.start)
        .arg(range.end)
        .arg(text.toHtmlEscaped());
}

QString panelLink(const QString& dockName, const QString& text) {
    return QStringLiteral("<a href='panel:%1'>%2</a>").arg(dockName, text.toHtmlEscaped());
}

LinkView::LinkView(QWidget* parent) : QTextBrowser(parent) {
    setOpenLinks(false);
    setOpenExternalLinks(false);
    connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        const QString link = url.toString();
        const QStringList parts = link.split(':');
        if (parts.size() == 2 && parts[0] == "slice") {
            emit navigate(NavTarget::toSlice(parts[1].toUInt()));
        } else if (parts.size() == 3 && parts[0] == "range") {
            emit navigate(NavTarget::toRange({parts[1].toLongLong(), parts[2].toLongLong()}));
        } else if (parts.size() == 2 && parts[0] == "panel") {
            emit panelRequested(parts[1]);
        } else if (parts.size() == 2 && parts[0] == "expand") {
            emit expandRequested(parts[1].toInt());
        }
    });
}

void LinkView::contextMenuEvent(QContextMenuEvent* e) {
    std::unique_ptr<QMenu> menu(createStandardContextMenu(e->pos()));
    if (!extra_.isEmpty()) {
        menu->addSeparator();
        menu->addActions(extra_);
    }
    menu->exec(e->globalPos());
}

}  // namespace gapscope::ui
