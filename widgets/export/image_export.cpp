#include "export/image_export.h"

#include <QAction>
#include <QApplication>
#include <QBuffer>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLineEdit>
#include <QMessageBox>
#include <QRadioButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QVBoxLayout>

#include "export/export_files.h"
#include "timeline/timeline_view.h"
#include "trace_page.h"

namespace gapscope::ui {

QByteArray encodePicture(const PictureSpec& spec, const QString& path, QString* error) {
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext == QLatin1String("svg")) return renderSvg(spec, error);
    if (ext != QLatin1String("png")) {
        if (error) *error = QObject::tr("%1: the file name must end in .png or .svg").arg(path);
        return {};
    }
    QString why;
    const QImage image = renderPicture(spec, &why);
    if (image.isNull()) {
        if (error) *error = QStringLiteral("%1: %2").arg(path, why);
        return {};
    }
    const QByteArray png = pngBytes(image);
    if (png.isEmpty() && error) *error = QObject::tr("%1: could not encode the PNG").arg(path);
    return png;
}

namespace {

// The dialog of File > Export Image: range, tracks, width, scale, annotations.
class ExportImageDialog : public QDialog {
  public:
    ExportImageDialog(bool hasSelection, int width, QWidget* parent) : QDialog(parent) {
        setWindowTitle(tr("Export Image"));
        auto* form = new QFormLayout;
        auto* ranges = new QVBoxLayout;
        visible_ = new QRadioButton(tr("The visible window"), this);
        selection_ = new QRadioButton(tr("The selected range"), this);
        whole_ = new QRadioButton(tr("The whole trace"), this);
        selection_->setEnabled(hasSelection);
        (hasSelection ? selection_ : visible_)->setChecked(true);
        ranges->addWidget(visible_);
        ranges->addWidget(selection_);
        ranges->addWidget(whole_);
        form->addRow(tr("Range:"), ranges);
        tracks_ = new QComboBox(this);
        tracks_->addItem(tr("All tracks"), QStringLiteral("all"));
        tracks_->addItem(tr("GPU tracks"), QStringLiteral("gpu"));
        tracks_->addItem(tr("CPU tracks"), QStringLiteral("cpu"));
        tracks_->addItem(tr("Tracks matching…"), QString());
        pattern_ = new QLineEdit(this);
        pattern_->setPlaceholderText(tr("regular expression over 'process / track'"));
        pattern_->setEnabled(false);
        connect(tracks_, &QComboBox::currentIndexChanged, this,
                [this](int i) { pattern_->setEnabled(tracks_->itemData(i).toString().isEmpty()); });
        form->addRow(tr("Tracks:"), tracks_);
        form->addRow(QString(), pattern_);
        width_ = new QSpinBox(this);
        width_->setRange(400, 20000);
        width_->setValue(std::clamp(width, 400, 20000));
        width_->setSuffix(tr(" px"));
        form->addRow(tr("Width:"), width_);
        scale_ = new QComboBox(this);
        scale_->addItem(tr("1× (as on screen)"), 1);
        scale_->addItem(tr("2× (high DPI, print)"), 2);
        form->addRow(tr("PNG scale:"), scale_);
        annotations_ = new QCheckBox(tr("Draw the annotations"), this);
        annotations_->setChecked(true);
        form->addRow(QString(), annotations_);
        auto* buttons =
            new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
        connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
        connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
        auto* layout = new QVBoxLayout(this);
        layout->addLayout(form);
        layout->addWidget(buttons);
    }

    ImageExport::Choice choice() const {
        ImageExport::Choice c;
        c.range = selection_->isChecked() ? ImageExport::Choice::Range::Selection
                  : whole_->isChecked()   ? ImageExport::Choice::Range::Whole
                                          : ImageExport::Choice::Range::Visible;
        const QString t = tracks_->currentData().toString();
        c.tracks = t.isEmpty() ? pattern_->text() : t;
        c.width = width_->value();
        c.scale = scale_->currentData().toInt();
        c.annotations = annotations_->isChecked();
        return c;
    }

  private:
    QRadioButton *visible_, *selection_, *whole_;
    QComboBox *tracks_, *scale_;
    QLineEdit* pattern_;
    QSpinBox* width_;
    QCheckBox* annotations_;
};

}  // namespace

ImageExport::ImageExport(TracePage* page, QWidget* window)
    : QObject(window), page_(page), window_(window) {
    export_ = new QAction(tr("Export &Image…"), this);
    export_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    connect(export_, &QAction::triggered, this, &ImageExport::chooseAndExport);
    copy_ = new QAction(tr("&Copy Image"), this);
    copy_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    connect(copy_, &QAction::triggered, this, &ImageExport::copyToClipboard);
}

std::optional<PictureSpec> ImageExport::specFor(const Choice& choice, QString* error) const {
    const auto trace = page_->trace();
    if (!trace) {
        if (error) *error = tr("No trace is open.");
        return std::nullopt;
    }
    PictureSpec spec;
    spec.trace = trace;
    const ViewState* state = page_->state();
    switch (choice.range) {
        case Choice::Range::Visible:
            spec.range = state->visible();
            break;
        case Choice::Range::Selection: {
            const auto r = state->selectedRange();
            if (!r || r->span() <= 0) {
                if (error) *error = tr("Nothing is selected (Shift+drag on the timeline).");
                return std::nullopt;
            }
            spec.range = *r;
            break;
        }
        case Choice::Range::Whole:
            spec.range = state->bounds();
            break;
    }
    std::string why;
    const auto tracks = selectTracks(*trace, choice.tracks.toStdString(), &why);
    if (!tracks) {
        if (error) *error = QString::fromStdString(why);
        return std::nullopt;
    }
    const TimelineView* timeline = page_->timeline();
    spec.tracks = *tracks;
    spec.arrangement = timeline->arrangement();
    spec.width = choice.width > 0 ? choice.width : timeline->width();
    spec.scale = choice.scale;
    spec.dark = timeline->palette().color(QPalette::Window).lightness() < 128;
    spec.title = trace->path.empty() ? tr("trace")
                                     : QFileInfo(QString::fromStdString(trace->path)).fileName();
    spec.origin = trace->spanStart;
    spec.gapThreshold = timeline->gapThreshold();
    spec.gapColours = timeline->gapCauseColors();
    if (choice.annotations) spec.annotations = annotations_;
    spec.font = timeline->font();
    return spec;
}

bool ImageExport::exportTo(const QString& path, const Choice& choice, QString* error) const {
    const auto spec = specFor(choice, error);
    if (!spec) return false;
    const QByteArray bytes = encodePicture(*spec, path, error);
    return !bytes.isEmpty() &&
           writeExportFile(path, bytes, error, protectedFiles(spec->trace->path));
}

void ImageExport::chooseAndExport() {
    if (!page_->trace()) return;
    const auto range = page_->state()->selectedRange();
    ExportImageDialog dialog(range && range->span() > 0, page_->timeline()->width(), window_);
    if (dialog.exec() != QDialog::Accepted) return;
    const Choice choice = dialog.choice();
    QString error;
    const auto spec = specFor(choice, &error);
    if (!spec) {
        QMessageBox::warning(window_, tr("Export Image"), error);
        return;
    }
    const QString suggested =
        suggestedSavePath(QFileInfo(spec->title).completeBaseName() + ".png",
                          QStandardPaths::writableLocation(QStandardPaths::PicturesLocation));
    const QString path = QFileDialog::getSaveFileName(window_, tr("Export Image"), suggested,
                                                      tr("PNG image (*.png);;SVG image (*.svg)"));
    if (path.isEmpty()) return;
    rememberSaveFolder(path);
    runExport(
        exports_, this, window_, tr("Export Image"),
        [spec = *spec, path](QString* message) {
            const QByteArray bytes = encodePicture(spec, path, message);
            const bool ok = !bytes.isEmpty() &&
                            writeExportFile(path, bytes, message, protectedFiles(spec.trace->path));
            if (ok) *message = tr("Exported %1").arg(path);
            return ok;
        },
        [this](const QString& message) { emit finished(message); });
}

void ImageExport::copyToClipboard() {
    Choice choice;
    choice.scale = 1;
    QString error;
    auto spec = specFor(choice, &error);
    if (!spec) {
        emit finished(error);
        return;
    }
    spec->scale = page_->timeline()->devicePixelRatioF();
    const QImage image = renderPicture(*spec, &error);
    if (image.isNull()) {
        emit finished(error);
        return;
    }
    QApplication::clipboard()->setImage(image);
    emit finished(tr("Copied the picture of the visible window"));
}

}  // namespace gapscope::ui
