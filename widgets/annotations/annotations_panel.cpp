#include "annotations/annotations_panel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPixmap>
#include <QPushButton>
#include <QStyledItemDelegate>
#include <QTableWidget>
#include <QVBoxLayout>

#include "annotations/annotation_store.h"
#include "picture/annotation_painter.h"
#include "timeline/time_axis.h"

namespace gapscope::ui {

namespace {

enum Column { kKind, kAt, kDuration, kText, kColumns };

QString kindLabel(Annotation::Kind kind) {
    switch (kind) {
        case Annotation::Kind::Marker:
            return AnnotationsPanel::tr("marker");
        case Annotation::Kind::Range:
            return AnnotationsPanel::tr("range");
        case Annotation::Kind::Slice:
            return AnnotationsPanel::tr("slice");
    }
    return {};
}

QIcon swatch(const std::string& colour) {
    QPixmap p(12, 12);
    p.fill(QColor(QString::fromStdString(colour)));
    return QIcon(p);
}

// One-line texts edit in place, up to what a sidecar keeps (QLineEdit's
// own limit is 32,767 characters); the store cuts at kMaxAnnotationText bytes.
class TextDelegate : public QStyledItemDelegate {
  public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                          const QModelIndex& index) const override {
        QWidget* editor = QStyledItemDelegate::createEditor(parent, option, index);
        if (auto* line = qobject_cast<QLineEdit*>(editor))
            line->setMaxLength(static_cast<int>(kMaxAnnotationText));
        return editor;
    }
};

}  // namespace

AnnotationsPanel::AnnotationsPanel(AnnotationStore* store, QWidget* parent)
    : QWidget(parent),
      store_(store),
      notice_(new QLabel(this)),
      table_(new QTableWidget(this)),
      edit_(new QPushButton(tr("Edit…"), this)),
      colour_(new QPushButton(tr("Colour…"), this)),
      remove_(new QPushButton(tr("Remove"), this)) {
    notice_->setWordWrap(true);
    notice_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    notice_->hide();
    table_->setColumnCount(kColumns);
    table_->setHorizontalHeaderLabels({tr("Kind"), tr("At"), tr("Duration"), tr("Text")});
    table_->verticalHeader()->hide();
    table_->setWordWrap(false);  // one line a row; the tooltip and the editor have it all
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    table_->setItemDelegateForColumn(kText, new TextDelegate(table_));
    table_->installEventFilter(this);
    auto* marker = new QPushButton(tr("Marker (Shift+M)"), this);
    marker->setToolTip(tr("A marker at the cursor on the timeline (Shift+M)"));
    auto* note = new QPushButton(tr("Note (N)"), this);
    note->setToolTip(tr("A note on the selected range or slice (N)"));
    // Two rows: in one, the buttons made the dock (and Details, tabbed with
    // it) a third of a laptop screen wide.
    auto* buttons = new QVBoxLayout;
    auto* add = new QHBoxLayout;
    add->addWidget(marker);
    add->addWidget(note);
    add->addStretch();
    auto* change = new QHBoxLayout;
    edit_->setToolTip(tr("Edit the text, line breaks and all"));
    change->addWidget(edit_);
    change->addWidget(colour_);
    change->addWidget(remove_);
    change->addStretch();
    buttons->addLayout(add);
    buttons->addLayout(change);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(notice_);
    layout->addWidget(table_, 1);
    layout->addLayout(buttons);
    connect(marker, &QPushButton::clicked, this, &AnnotationsPanel::addMarkerRequested);
    connect(note, &QPushButton::clicked, this, &AnnotationsPanel::addNoteRequested);
    connect(edit_, &QPushButton::clicked, this, [this] {
        if (const uint64_t id = selected()) emit editRequested(id);
    });
    // A text of several lines is edited in the dialog, not in the one-line cell.
    connect(table_, &QTableWidget::itemDoubleClicked, this, [this](QTableWidgetItem* item) {
        if (item->column() == kText && !(item->flags() & Qt::ItemIsEditable) && store_->writable())
            emit editRequested(item->data(Qt::UserRole).toULongLong());
    });
    connect(colour_, &QPushButton::clicked, this, [this] {
        if (const uint64_t id = selected()) emit colourRequested(id);
    });
    connect(remove_, &QPushButton::clicked, this, [this] {
        if (const uint64_t id = selected()) store_->remove(id);
    });
    connect(table_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (filling_ || item->column() != kText) return;
        store_->setText(item->data(Qt::UserRole).toULongLong(), item->text());
    });
    connect(table_, &QTableWidget::itemSelectionChanged, this, [this] {
        const uint64_t id = selected();
        edit_->setEnabled(id != 0 && store_->writable());
        colour_->setEnabled(id != 0 && store_->writable());
        remove_->setEnabled(id != 0 && store_->writable());
        if (id && !filling_) emit activated(id);
    });
    connect(store_, &AnnotationStore::changed, this, &AnnotationsPanel::refill);
    connect(store_, &AnnotationStore::noticeChanged, this, [this](const QString& text) {
        notice_->setText(text);
        notice_->setVisible(!text.isEmpty());
    });
    refill();
}

void AnnotationsPanel::refill() {
    const uint64_t keep = selected();
    filling_ = true;
    const auto& all = store_->annotations();
    table_->setRowCount(static_cast<int>(all.size()));
    for (int r = 0; r < static_cast<int>(all.size()); ++r) {
        const Annotation& a = all[static_cast<size_t>(r)];
        const TimeNs resolution = std::max<TimeNs>(1, (a.end - a.start) / 100);
        auto cell = [&](int column, const QString& text, bool editable) {
            auto* item = new QTableWidgetItem(text);
            item->setData(Qt::UserRole, QVariant::fromValue<qulonglong>(a.id));
            Qt::ItemFlags flags = Qt::ItemIsSelectable | Qt::ItemIsEnabled;
            if (editable) flags |= Qt::ItemIsEditable;
            item->setFlags(flags);
            table_->setItem(r, column, item);
            return item;
        };
        cell(kKind, kindLabel(a.kind), false)->setIcon(swatch(a.color));
        cell(kAt, formatDuration(a.start - origin_, 1000), false);  // to the µs
        cell(kDuration,
             a.kind == Annotation::Kind::Marker ? QString()
                                                : formatDuration(a.end - a.start, resolution),
             false);
        const bool oneLine = a.text.find_first_of("\r\n") == std::string::npos;
        QTableWidgetItem* text =
            cell(kText, QString::fromStdString(a.text), store_->writable() && oneLine);
        QString tip = QString::fromStdString(a.text);
        if (a.kind == Annotation::Kind::Slice)
            tip += tr("\n(on %1 in %2)")
                       .arg(QString::fromStdString(a.slice), QString::fromStdString(a.track));
        text->setToolTip(tip.trimmed());
    }
    table_->resizeColumnToContents(kKind);
    table_->resizeColumnToContents(kAt);
    table_->resizeColumnToContents(kDuration);
    filling_ = false;
    select(keep);
    edit_->setEnabled(selected() != 0 && store_->writable());
    colour_->setEnabled(selected() != 0 && store_->writable());
    remove_->setEnabled(selected() != 0 && store_->writable());
    notice_->setText(store_->notice());
    notice_->setVisible(!store_->notice().isEmpty());
}

void AnnotationsPanel::select(uint64_t id) {
    for (int r = 0; r < table_->rowCount(); ++r) {
        if (table_->item(r, kKind)->data(Qt::UserRole).toULongLong() != id) continue;
        const bool was = filling_;
        filling_ = true;
        table_->selectRow(r);
        filling_ = was;
        return;
    }
}

uint64_t AnnotationsPanel::selected() const {
    const auto rows = table_->selectionModel()->selectedRows();
    if (rows.isEmpty()) return 0;
    const QTableWidgetItem* item = table_->item(rows.front().row(), kKind);
    return item ? item->data(Qt::UserRole).toULongLong() : 0;
}

bool AnnotationsPanel::eventFilter(QObject* watched, QEvent* event) {
    // (While a text is edited its keys go to the editor, not the table.)
    if (watched == table_ && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Delete || key->key() == Qt::Key_Backspace) {
            if (const uint64_t id = selected()) store_->remove(id);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace gapscope::ui
