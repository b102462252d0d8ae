#include "panels/dock_content.h"

namespace gapscope::ui {

QScrollArea* fittingDockContent(QWidget* content) {
    auto* scroll = new QScrollArea;
    scroll->setObjectName(content->objectName() + QStringLiteral("Scroll"));
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    // The panel's own background, not the scroll area's (a dark theme's
    // base colour would show around a panel that does not fill it).
    scroll->setBackgroundRole(QPalette::Window);
    scroll->setWidget(content);
    return scroll;
}

}  // namespace gapscope::ui
