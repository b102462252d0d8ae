#include "format/xspace/xspace_args.h"

#include <algorithm>

#include "format/xspace/file_fields.h"
#include "format/xspace/plane_in_file.h"

namespace gapscope::xspace {

struct XSpaceArgsDecoder::Plane {
    uint64_t begin = 0, end = 0;  // the plane's payload in the file
    bool named = false;
    std::string store;  // its names' bytes
    PlaneParts parts;   // views into `store`
};

XSpaceArgsDecoder::XSpaceArgsDecoder() = default;
XSpaceArgsDecoder::~XSpaceArgsDecoder() = default;

const XSpaceArgsDecoder::Plane* XSpaceArgsDecoder::planeAt(uint64_t offset,
                                                           const FileBytesReader& read) const {
    if (!indexed_) {
        planes_.clear();
        FileFields top(read, 0, UINT64_MAX);
        FieldHead h;
        try {
            while (top.next(h))
                if (h.number == XSpaceField::kPlanes && h.type == wire::WireType::Bytes) {
                    auto p = std::make_unique<Plane>();
                    p->begin = h.payloadOffset;
                    p->end = h.payloadOffset + h.length;
                    planes_.push_back(std::move(p));
                }
        } catch (const wire::WireError&) {
            // Garbage after good planes: the reader kept the planes before it.
        } catch (const FileReadError&) {
            // A field cut by the end of the file: the same.
        }
        indexed_ = true;
    }
    const auto it = std::upper_bound(planes_.begin(), planes_.end(), offset,
                                     [](uint64_t at, const auto& p) { return at < p->begin; });
    if (it == planes_.begin() || offset >= (*(it - 1))->end) return nullptr;
    Plane& plane = **(it - 1);
    if (!plane.named) {
        readPlaneInFile(read, plane.begin, plane.end, plane.store, plane.parts);
        plane.named = true;
    }
    return &plane;
}

bool XSpaceArgsDecoder::decode(std::string_view record, uint64_t offset,
                               const FileBytesReader& read, std::string& json,
                               std::string& error) const {
    std::lock_guard lock(mutex_);
    try {
        const Plane* plane = planeAt(offset, read);
        if (!plane) {
            error = "no plane of the file holds byte " + std::to_string(offset);
            return false;
        }
        json = composeEventArgs(plane->parts.names, Span{record, offset}).json;
        return true;
    } catch (const wire::WireError& e) {
        error = "malformed XSpace at byte " + std::to_string(e.offset()) + ": " + e.what();
    } catch (const FileReadError& e) {
        error = e.what;
    } catch (const std::exception& e) {  // a plane too large to hold its names
        error = std::string("the args could not be decoded: ") + e.what();
    }
    json.clear();
    return false;
}

}  // namespace gapscope::xspace
