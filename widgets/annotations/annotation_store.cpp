#include "annotations/annotation_store.h"

#include <QFileInfo>
#include <QUndoStack>
#include <algorithm>
#include <filesystem>
#include <set>

#include "picture/annotation_files.h"

namespace gapscope::ui {

// One change: the lists before and after; undo and redo swap them in.
class AnnotationCommand : public QUndoCommand {
  public:
    AnnotationCommand(AnnotationStore* store, const QString& text, std::vector<Annotation> before,
                      std::vector<Annotation> after)
        : QUndoCommand(text), store_(store), before_(std::move(before)), after_(std::move(after)) {}
    void undo() override { store_->apply(before_); }
    void redo() override { store_->apply(after_); }

  private:
    AnnotationStore* store_;
    std::vector<Annotation> before_, after_;
};

namespace {

// At most kMaxAnnotationText bytes, cut at a character's start: a cut in
// the middle of one would be written as U+FFFD and could make the text
// longer than the reader accepts.
std::string capped(std::string text) {
    if (text.size() <= kMaxAnnotationText) return text;
    size_t n = kMaxAnnotationText;
    while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80)
        --n;
    text.resize(n);
    return text;
}

}  // namespace

AnnotationStore::AnnotationStore(QObject* parent) : QObject(parent), undo_(new QUndoStack(this)) {}

void AnnotationStore::clear() {
    undo_->clear();
    annotations_.clear();
    tracePath_.clear();
    path_.clear();
    fallback_ = false;
    writable_ = false;
    nextId_ = 1;
    lastAdded_ = 0;
    setNotice({});
    emit changed();
}

void AnnotationStore::load(const QString& tracePath) {
    clear();
    tracePath_ = tracePath.toStdString();
    const SidecarLocation where = sidecarLocation(tracePath_);
    path_ = where.path;
    fallback_ = where.fallback;
    const SidecarRead read = readSidecar(where.readPath);
    writable_ = mayReplace(read.status);
    if (read.status == SidecarStatus::Loaded) annotations_ = read.annotations;
    for (const Annotation& a : annotations_)
        nextId_ = std::max(nextId_, a.id + 1);
    // Ids pick what an edit or a removal acts on: a zero or repeated one (two
    // sidecars merged by hand) gets a new one, saved with the next change.
    std::set<uint64_t> seen;
    for (Annotation& a : annotations_)
        if (a.id == 0 || !seen.insert(a.id).second) a.id = nextId_++;
    if (!writable_) {
        setNotice(tr("The annotations file cannot be used, so it is kept as it is and nothing is "
                     "saved: %1")
                      .arg(QString::fromStdString(read.error)));
    } else if (fallback_) {
        setNotice(tr("The trace's folder cannot be written: annotations are kept in %1")
                      .arg(QString::fromStdString(path_)));
    }
    emit changed();
}

const Annotation* AnnotationStore::find(uint64_t id) const {
    for (const Annotation& a : annotations_)
        if (a.id == id) return &a;
    return nullptr;
}

bool AnnotationStore::edit(const QString& what, std::vector<Annotation> next) {
    if (tracePath_.empty()) return false;
    if (!writable_) {
        emit noticeChanged(notice_);  // say it again: the change was refused
        return false;
    }
    undo_->push(new AnnotationCommand(this, what, annotations_, std::move(next)));
    return true;
}

bool AnnotationStore::add(Annotation a) {
    if (a.end < a.start) std::swap(a.start, a.end);
    a.text = capped(std::move(a.text));
    // What the reader would refuse (and so lock the whole sidecar) is not added.
    if (a.kind == Annotation::Kind::Marker) a.end = a.start;
    if (a.kind == Annotation::Kind::Slice && a.slice.empty()) {
        a.kind = Annotation::Kind::Range;  // an unnamed slice: a note on its span
        a.track.clear();
    }
    a.id = nextId_;
    std::vector<Annotation> next = annotations_;
    next.push_back(a);
    std::stable_sort(next.begin(), next.end(),
                     [](const Annotation& x, const Annotation& y) { return x.start < y.start; });
    const QString what = a.kind == Annotation::Kind::Marker ? tr("Add Marker") : tr("Add Note");
    if (!edit(what, std::move(next))) return false;
    ++nextId_;
    lastAdded_ = a.id;
    return true;
}

bool AnnotationStore::setText(uint64_t id, const QString& text) {
    std::vector<Annotation> next = annotations_;
    for (Annotation& a : next) {
        if (a.id != id) continue;
        std::string t = capped(text.toStdString());
        if (t == a.text) return true;
        a.text = std::move(t);
        return edit(tr("Edit Annotation"), std::move(next));
    }
    return false;
}

bool AnnotationStore::setColor(uint64_t id, const QString& color) {
    std::vector<Annotation> next = annotations_;
    for (Annotation& a : next) {
        if (a.id != id) continue;
        if (a.color == color.toStdString()) return true;
        a.color = color.toStdString();
        return edit(tr("Change Annotation Colour"), std::move(next));
    }
    return false;
}

bool AnnotationStore::remove(uint64_t id) {
    std::vector<Annotation> next = annotations_;
    const auto it =
        std::find_if(next.begin(), next.end(), [id](const Annotation& a) { return a.id == id; });
    if (it == next.end()) return false;
    next.erase(it);
    return edit(tr("Remove Annotation"), std::move(next));
}

void AnnotationStore::apply(std::vector<Annotation> annotations) {
    annotations_ = std::move(annotations);
    if (fallback_) {  // the data folder may not exist yet
        std::error_code ec;
        std::filesystem::create_directories(std::filesystem::path(path_).parent_path(), ec);
    }
    const std::string error =
        writeSidecar(path_, annotations_,
                     QFileInfo(QString::fromStdString(tracePath_)).fileName().toStdString());
    if (!error.empty()) {
        setNotice(tr("The annotations could not be saved: %1: %2")
                      .arg(QString::fromStdString(path_), QString::fromStdString(error)));
    } else if (notice_.startsWith(tr("The annotations could not be saved"))) {
        setNotice({});
    }
    emit changed();
}

void AnnotationStore::setNotice(const QString& notice) {
    if (notice == notice_) return;
    notice_ = notice;
    emit noticeChanged(notice_);
}

}  // namespace gapscope::ui
