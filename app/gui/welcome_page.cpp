#include "welcome_page.h"

#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace gapscope::app {

WelcomePage::WelcomePage(QWidget* parent) : QWidget(parent), recent_(new QListWidget(this)) {
    auto* outer = new QVBoxLayout(this);
    auto* column = new QWidget(this);
    column->setMaximumWidth(620);
    auto* layout = new QVBoxLayout(column);
    auto* title = new QLabel(
        tr("<h1 style='margin-bottom:0'>Gapscope</h1>"
           "<p style='font-size:larger'>Where and why is the GPU idle?</p>"
           "<p>Open a trace from the PyTorch profiler (Kineto), the TensorFlow profiler or "
           "JAX: Chrome Trace Event Format <tt>.json</tt>, <tt>.json.gz</tt> or "
           "<tt>.json.zst</tt>. Drop a file anywhere on this window.</p>"),
        column);
    title->setWordWrap(true);
    auto* open = new QPushButton(tr("Open Trace…"), column);
    auto* sample = new QPushButton(tr("Open Sample Trace"), column);
    sample->setToolTip(tr("A real PyTorch profiler recording of a small CNN on an NVIDIA H200"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(open);
    buttons->addWidget(sample);
    buttons->addStretch();
    layout->addWidget(title);
    layout->addLayout(buttons);
    layout->addSpacing(16);
    layout->addWidget(new QLabel(tr("<b>Recent traces</b>"), column));
    layout->addWidget(recent_);
    outer->addStretch(1);
    outer->addWidget(column, 0, Qt::AlignHCenter);
    outer->addStretch(2);
    connect(open, &QPushButton::clicked, this, &WelcomePage::openRequested);
    connect(sample, &QPushButton::clicked, this, &WelcomePage::sampleRequested);
    connect(recent_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        emit recentRequested(item->data(Qt::UserRole).toString());
    });
}

void WelcomePage::setRecentFiles(const QStringList& files) {
    files_ = files;
    // Filled when next shown: laying out the list of a hidden page (every
    // load updates the recent files) cost 5 ms of GUI time after a load.
    listed_ = false;
    if (isVisible()) fillList();
}

void WelcomePage::showEvent(QShowEvent* e) {
    if (!listed_) fillList();
    QWidget::showEvent(e);
}

void WelcomePage::fillList() {
    listed_ = true;
    recent_->clear();
    for (const QString& f : files_) {
        auto* item = new QListWidgetItem(QFileInfo(f).fileName() + QStringLiteral("  —  ") +
                                         QFileInfo(f).path());
        item->setData(Qt::UserRole, f);
        item->setToolTip(f);
        recent_->addItem(item);
    }
    if (files_.isEmpty()) recent_->addItem(tr("(none yet)"));
}

}  // namespace gapscope::app
