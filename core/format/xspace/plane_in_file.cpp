#include "format/xspace/plane_in_file.h"

#include <algorithm>
#include <vector>

#include "format/xspace/file_fields.h"

namespace gapscope::xspace {

void readPlaneInFile(const FileBytesReader& read, uint64_t begin, uint64_t end, std::string& store,
                     PlaneParts& out) {
    out.clear();
    std::vector<FieldHead> kept;  // everything but the lines
    uint64_t total = 0;
    FileFields fields(read, begin, end);
    FieldHead h;
    while (fields.next(h)) {
        switch (h.number) {
            case PlaneField::kLines:
                if (h.type != wire::WireType::Bytes)
                    throw wire::WireError(h.offset, "a line is not length-delimited");
                out.lines.push_back({h.payloadOffset, h.length, {}});
                break;
            case PlaneField::kName:
            case PlaneField::kEventMetadata:
            case PlaneField::kStatMetadata:
            case PlaneField::kStats:
                if (h.type != wire::WireType::Bytes)
                    throw wire::WireError(h.offset, "field " + std::to_string(h.number) +
                                                        " of a plane is not length-delimited");
                kept.push_back(h);
                total += h.length;  // within the plane: at most its size
                break;
            default:
                break;  // the id, newer fields
        }
    }
    store.resize(static_cast<size_t>(total));
    size_t at = 0;
    for (const FieldHead& k : kept) {
        const std::string_view bytes = fields.bytes(k.payloadOffset, k.length);
        std::copy(bytes.begin(), bytes.end(), store.begin() + static_cast<ptrdiff_t>(at));
        const std::string_view held = std::string_view(store).substr(at, bytes.size());
        at += bytes.size();
        if (k.number == PlaneField::kName) {
            out.name = held;
        } else if (k.number == PlaneField::kStats) {
            out.stats.push_back({held, k.payloadOffset});
        } else {
            wire::Field f;
            f.number = k.number;
            f.type = wire::WireType::Bytes;
            f.bytes = held;
            f.offset = k.offset;
            f.payloadOffset = k.payloadOffset;
            out.names.addEntry(f, k.number == PlaneField::kEventMetadata);
        }
    }
}

}  // namespace gapscope::xspace
