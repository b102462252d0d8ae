#include "panels/link_view.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <memory>

namespace gapscope::ui {

QString sliceLink(uint32_t slice, const QString& text) {
    return QStringLiteral("<a href='slice:%1'>%2</a>").arg(slice).arg(text.toHtmlEscaped());
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
