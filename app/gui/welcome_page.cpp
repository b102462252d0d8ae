#include "welcome_page.h"

#include <QApplication>
#include <QClipboard>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "record_snippets.h"

namespace gapscope::app {

namespace {

// One framework's recording code, read-only, with a Copy button.
QWidget* snippetTab(const RecordSnippet& snippet, QWidget* parent) {
    auto* tab = new QWidget(parent);
    auto* layout = new QVBoxLayout(tab);
    auto* code = new QPlainTextEdit(QString::fromUtf8(snippet.code), tab);
    code->setObjectName(QStringLiteral("snippet%1").arg(QString::fromLatin1(snippet.framework)));
    code->setReadOnly(true);
    code->setLineWrapMode(QPlainTextEdit::NoWrap);
    code->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    // The whole code in view: its longest line and all its lines.
    const QStringList lines = code->toPlainText().split(QLatin1Char('\n'));
    int widest = 0;
    for (const QString& line : lines)
        widest = std::max(widest, code->fontMetrics().horizontalAdvance(line));
    code->setMinimumWidth(widest + 2 * code->frameWidth() + 16);
    code->setMinimumHeight(code->fontMetrics().lineSpacing() * static_cast<int>(lines.size() + 1));
    auto* copy = new QPushButton(QObject::tr("Copy"), tab);
    copy->setToolTip(QObject::tr("Copy the code to the clipboard"));
    QObject::connect(copy, &QPushButton::clicked, code,
                     [code] { QApplication::clipboard()->setText(code->toPlainText()); });
    auto* row = new QHBoxLayout;
    row->addStretch();
    row->addWidget(copy);
    layout->addWidget(code);
    layout->addLayout(row);
    return tab;
}

}  // namespace

WelcomePage::WelcomePage(QWidget* parent) : QWidget(parent), recent_(new QListWidget(this)) {
    auto* outer = new QVBoxLayout(this);
    auto* column = new QWidget(this);
    column->setMaximumWidth(1000);
    auto* layout = new QVBoxLayout(column);
    auto* title = new QLabel(
        tr("<h1 style='margin-bottom:0'>Gapscope</h1>"
           "<p style='font-size:larger'>Where and why is the GPU idle?</p>"
           "<p>A viewer for the profiles of machine-learning jobs: it shades every idle gap "
           "of every GPU with its cause — waiting for input, for the host, for a sync, for "
           "communication — and shows where the GPU time goes. It opens PyTorch, TensorFlow "
           "and JAX traces (<tt>.json</tt>, <tt>.json.gz</tt>, <tt>.json.zst</tt>, "
           "<tt>.xplane.pb</tt>), Nsight Systems exports (<tt>.sqlite</tt>, from <tt>nsys "
           "export --type sqlite</tt>) and TensorBoard log folders; drop one on this "
           "window.</p>"),
        column);
    title->setWordWrap(true);
    title->setTextFormat(Qt::RichText);
    auto* sample = new QPushButton(tr("Open Sample Trace"), column);
    sample->setObjectName(QStringLiteral("openSample"));
    sample->setDefault(true);
    sample->setToolTip(
        tr("A real PyTorch profiler recording of a small CNN on an NVIDIA H200 whose "
           "DataLoader leaves the GPU idle"));
    auto* open = new QPushButton(tr("Open Trace…"), column);
    open->setObjectName(QStringLiteral("openTrace"));
    auto* folder = new QPushButton(tr("Open Folder…"), column);
    folder->setObjectName(QStringLiteral("openFolder"));
    folder->setToolTip(tr("A TensorBoard log folder or a profile run's folder (*.xplane.pb)"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(sample);
    buttons->addWidget(open);
    buttons->addWidget(folder);
    buttons->addStretch();

    auto* recentColumn = new QVBoxLayout;
    recentColumn->addWidget(new QLabel(tr("<b>Recent traces</b>"), column));
    recentColumn->addWidget(recent_);
    auto* recordColumn = new QVBoxLayout;
    recordColumn->addWidget(new QLabel(tr("<b>Record a trace</b>"), column));
    auto* snippets = new QTabWidget(column);
    snippets->setObjectName(QStringLiteral("recordSnippets"));
    snippets->setDocumentMode(true);
    for (const RecordSnippet& s : kRecordSnippets)
        snippets->addTab(snippetTab(s, snippets), QString::fromLatin1(s.framework));
    recordColumn->addWidget(snippets);
    auto* columns = new QHBoxLayout;
    columns->addLayout(recentColumn, 2);
    columns->addSpacing(16);
    columns->addLayout(recordColumn, 3);

    layout->addWidget(title);
    layout->addLayout(buttons);
    layout->addSpacing(16);
    layout->addLayout(columns);
    outer->addStretch(1);
    outer->addWidget(column, 0, Qt::AlignHCenter);
    outer->addStretch(2);
    connect(open, &QPushButton::clicked, this, &WelcomePage::openRequested);
    connect(folder, &QPushButton::clicked, this, &WelcomePage::openFolderRequested);
    connect(sample, &QPushButton::clicked, this, &WelcomePage::sampleRequested);
    connect(recent_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        const QString path = item->data(Qt::UserRole).toString();
        if (!path.isEmpty()) emit recentRequested(path);
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
    if (files_.isEmpty()) {
        auto* none = new QListWidgetItem(tr("(none yet: try the sample trace)"));
        none->setFlags(Qt::NoItemFlags);
        recent_->addItem(none);
    }
}

}  // namespace gapscope::app
