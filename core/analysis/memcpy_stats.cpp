#include "analysis/memcpy_stats.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "model/vocabulary/vocabulary.h"

namespace gapscope {

std::vector<CopyStats> memcpyStats(const Trace& t, Interval window, const CancelToken* cancel) {
    std::map<std::tuple<int, ActivityKind, StringId>, CopyStats> groups;
    std::map<std::tuple<int, ActivityKind, StringId>, bool> allSized;
    for (const GpuDevice& device : t.gpuDevices) {
        if (cancel && cancel->isCancelled()) return {};
        forEachActivity(t, device, window, [&](uint32_t i, const Track& track, ActivityKind kind) {
            const Slice& s = t.slices[i];
            if (kind == ActivityKind::Kernel || s.start < window.start) return;
            const auto key = std::make_tuple(device.index, kind, s.name);
            auto [it, fresh] = groups.try_emplace(key);
            CopyStats& c = it->second;
            if (fresh) {
                c.device = device.index;
                c.kind = kind;
                c.name = s.name;
                if (kind == ActivityKind::Memcpy) c.direction = copyDirection(t, track, s);
                const std::optional<bool> pinned =
                    vocabulary::copyHostMemoryIsPinned(t.str(s.name));
                c.memory = !pinned   ? HostMemory::Unknown
                           : *pinned ? HostMemory::Pinned
                                     : HostMemory::Pageable;
                allSized[key] = true;
                c.bytes = 0;
            }
            ++c.count;
            c.total += s.dur;
            if (c.longestSlice == kNone || s.dur > t.slices[c.longestSlice].dur) c.longestSlice = i;
            const auto x = t.extractedArgs(s.args);
            if (x && x->bytes >= 0 && allSized[key])
                *c.bytes += x->bytes;
            else
                allSized[key] = false;
        });
    }
    std::vector<CopyStats> out;
    for (auto& [key, c] : groups) {
        if (!allSized[key]) c.bytes.reset();
        if (c.bytes && c.total > 0)
            c.bandwidthGBps = static_cast<double>(*c.bytes) / static_cast<double>(c.total);
        out.push_back(c);
    }
    std::sort(out.begin(), out.end(), [&](const CopyStats& a, const CopyStats& b) {
        if (a.total != b.total) return a.total > b.total;
        if (a.device != b.device) return a.device < b.device;
        if (a.kind != b.kind) return a.kind < b.kind;
        return t.str(a.name) < t.str(b.name);
    });
    return out;
}

}  // namespace gapscope
