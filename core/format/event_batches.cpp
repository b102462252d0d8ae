#include "format/event_batches.h"

namespace gapscope {

void deliver(const EventBatch& b, EventSink& sink) {
    size_t meta = 0;
    for (size_t i = 0; i < b.count; ++i) {
        while (meta < b.metadata.size() && b.metadata[meta].position == i) {
            sink.onMetadata(b.metadata[meta].key, b.metadata[meta].value);
            ++meta;
        }
        sink.onEvent(b.events[i]);
    }
    for (; meta < b.metadata.size(); ++meta)
        sink.onMetadata(b.metadata[meta].key, b.metadata[meta].value);
}

EventBatch& CopyingSink::current() {
    if (!current_) current_ = queue_.takeFree();
    return *current_;
}

void CopyingSink::onEvent(const RawEvent& ev) {
    EventBatch& b = current();
    appendEventCopy(b, ev, [](EventBatch& batch, std::string_view& v) {
        if (!v.empty()) v = batch.owned.keep(v);
    });
    if (b.count >= kEvents) flush();
}

void CopyingSink::onMetadata(std::string_view key, std::string_view rawValue) {
    EventBatch& b = current();
    b.metadata.push_back({b.count, std::string(key), std::string(rawValue)});
}

void CopyingSink::flush() {
    if (current_) queue_.push(std::move(current_));
}

}  // namespace gapscope
