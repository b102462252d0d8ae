#include "model/demangle_slices.h"

#include <unordered_map>

#include "model/trace.h"
#include "util/symbol_names.h"

namespace gapscope {

void demangleSliceNames(Trace& t) {
    std::unordered_map<StringId, StringId> renamed;
    const size_t interned = t.strings.size();  // not the names added below
    for (size_t id = 0; id < interned; ++id) {
        const std::string_view name = t.strings.view(static_cast<StringId>(id));
        if (!name.starts_with("_Z")) continue;
        if (const auto readable = demangleSymbol(name))
            renamed.emplace(static_cast<StringId>(id), t.strings.intern(*readable));
    }
    if (renamed.empty()) return;
    for (Slice& s : t.slices) {
        const auto it = renamed.find(s.name);
        if (it != renamed.end()) s.name = it->second;
    }
}

}  // namespace gapscope
