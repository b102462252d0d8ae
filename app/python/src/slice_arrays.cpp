#include "slice_arrays.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <regex>
#include <unordered_map>
#include <vector>

#include "analysis/slice_queries.h"
#include "model/slice_kind.h"
#include "python_values.h"

namespace py = pybind11;

namespace gapscope::python {

namespace {

std::regex compiled(const std::string& pattern, const char* what) {
    try {
        return std::regex(pattern, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
        throw py::value_error(std::string(what) + " " + pattern + ": " + e.what());
    }
}

py::list texts(const std::vector<std::string>& values) {
    py::list out;
    for (const std::string& v : values)
        out.append(text(v));
    return out;
}

template <class T>
py::array_t<T> arrayOf(const std::vector<T>& values) {
    py::array_t<T> a(static_cast<py::ssize_t>(values.size()));
    std::copy(values.begin(), values.end(), a.mutable_data());
    return a;
}

// Dense codes for the ids met, in the order met, and their texts.
class Codes {
  public:
    int32_t code(uint32_t id, const std::function<std::string()>& text) {
        const auto [it, added] = codes_.try_emplace(id, static_cast<int32_t>(texts_.size()));
        if (added) texts_.push_back(text());
        return it->second;
    }
    const std::vector<std::string>& texts() const { return texts_; }

  private:
    std::unordered_map<uint32_t, int32_t> codes_;
    std::vector<std::string> texts_;
};

std::string idText(const Trace& t, const IdKey& id) {
    return id.isText ? std::string(t.str(id.text)) : std::to_string(id.number);
}

}  // namespace

py::dict sliceArrays(const Trace& t, const SliceQuery& q) {
    std::optional<SliceKind> kind;
    if (q.kind) {
        std::string known;
        for (int k = 0; k < kSliceKindCount; ++k) {
            const std::string_view name = sliceKindName(static_cast<SliceKind>(k));
            if (name == *q.kind) kind = static_cast<SliceKind>(k);
            known += (known.empty() ? "" : ", ") + std::string(name);
        }
        if (!kind) throw py::value_error("kind " + *q.kind + ": one of " + known);
    }
    std::optional<std::regex> nameRegex, trackRegex;
    if (q.nameRegex) nameRegex = compiled(*q.nameRegex, "name_regex");
    if (q.trackRegex) trackRegex = compiled(*q.trackRegex, "track_regex");
    if (q.track && *q.track >= t.tracks.size())
        throw py::value_error("track " + std::to_string(*q.track) + ": the trace has " +
                              std::to_string(t.tracks.size()) + " tracks");
    const TimeNs from = q.start.value_or(INT64_MIN), to = q.end.value_or(INT64_MAX);

    // Signed, as pandas users subtract them (a depth - 1 must not wrap).
    std::vector<int64_t> slice, track;
    std::vector<int64_t> start, end, dur;
    std::vector<int32_t> depth;
    std::vector<int32_t> name, kindCode, category;
    Codes names, kinds, categories;
    {
        const py::gil_scoped_release release;
        // Whether a name is wanted, decided once per name.
        std::unordered_map<StringId, bool> wanted;
        auto nameWanted = [&](StringId id) {
            if (!q.name && !nameRegex) return true;
            const auto [it, added] = wanted.try_emplace(id, false);
            if (added) {
                const std::string text(t.str(id));
                it->second = (!q.name || text == *q.name) &&
                             (!nameRegex || std::regex_search(text, *nameRegex));
            }
            return it->second;
        };
        for (uint32_t tr = 0; tr < t.tracks.size(); ++tr) {
            if (q.track && tr != *q.track) continue;
            if (trackRegex && !std::regex_search(trackLabel(t, tr), *trackRegex)) continue;
            const Track& track0 = t.tracks[tr];
            for (uint32_t i = track0.sliceBegin; i < track0.sliceEnd; ++i) {
                const Slice& s = t.slices[i];
                // Overlapping [from, to); an instant-like slice where it lies.
                const bool overlaps =
                    s.dur > 0 ? s.start < to && s.end() > from : s.start >= from && s.start < to;
                if (!overlaps || (kind && sliceKind(s) != *kind) || !nameWanted(s.name)) continue;
                slice.push_back(i);
                track.push_back(tr);
                start.push_back(s.start);
                end.push_back(s.end());
                dur.push_back(s.dur);
                depth.push_back(s.depth);
                name.push_back(names.code(s.name, [&] { return std::string(t.str(s.name)); }));
                kindCode.push_back(kinds.code(static_cast<uint32_t>(sliceKind(s)), [&] {
                    return std::string(sliceKindName(sliceKind(s)));
                }));
                category.push_back(categories.code(
                    s.category, [&] { return std::string(t.categoryName(s.category)); }));
            }
        }
    }
    py::dict columns;
    columns["slice"] = arrayOf(slice);
    columns["track"] = arrayOf(track);
    columns["start_ns"] = arrayOf(start);
    columns["end_ns"] = arrayOf(end);
    columns["dur_ns"] = arrayOf(dur);
    columns["depth"] = arrayOf(depth);
    columns["name"] = arrayOf(name);
    columns["kind"] = arrayOf(kindCode);
    columns["category"] = arrayOf(category);
    py::dict out;
    out["columns"] = columns;
    out["names"] = texts(names.texts());
    out["kinds"] = texts(kinds.texts());
    out["categories"] = texts(categories.texts());
    return out;
}

py::dict trackColumns(const Trace& t) {
    py::list label, kind, process, thread;
    std::vector<int64_t> index, count, rank, gpu;
    for (uint32_t i = 0; i < t.tracks.size(); ++i) {
        const Track& tr = t.tracks[i];
        const Process& p = t.processes[tr.process];
        index.push_back(i);
        label.append(text(trackLabel(t, i)));
        kind.append(text(trackKindName(tr.kind)));
        process.append(text(idText(t, p.pid)));
        thread.append(text(idText(t, tr.tid)));
        rank.push_back(t.ranks.empty() ? 0 : t.ranks[p.group].rank);
        gpu.push_back(tr.gpuDevice);
        count.push_back(tr.sliceCount());
    }
    py::dict out;
    out["track"] = arrayOf(index);
    out["label"] = label;
    out["kind"] = kind;
    out["process"] = process;
    out["thread"] = thread;
    out["rank"] = arrayOf(rank);
    out["gpu"] = arrayOf(gpu);
    out["slices"] = arrayOf(count);
    return out;
}

}  // namespace gapscope::python
