#include "analysis/device_peaks.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "model/device_properties.h"

namespace gapscope {

extern const char kGpuPeaksJson[];  // resources/hardware/gpu_peaks.json, built in

namespace {

constexpr const char* kPeakTypeNames[kPeakTypeCount] = {"fp64", "fp64_tensor", "fp32", "tf32",
                                                        "bf16", "fp16",        "fp8",  "int8"};

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

struct Conditions {
    std::vector<std::string> names, exclusions;
    std::optional<int> sms;
    std::optional<std::pair<double, double>> memoryGib;  // [from, below)
};

struct Entry {
    DevicePeaks peaks;
    Conditions match;
};

std::vector<std::string> strings(const nlohmann::json& j) {
    std::vector<std::string> out;
    if (j.is_array())
        for (const auto& s : j)
            out.push_back(lower(s.get<std::string>()));
    return out;
}

// The built-in table; a file that does not read is a build's bug.
std::vector<Entry> parseTable() {
    const nlohmann::json doc = nlohmann::json::parse(kGpuPeaksJson);
    std::vector<Entry> out;
    for (const auto& d : doc.at("devices")) {
        Entry e;
        e.peaks.id = d.at("id").get<std::string>();
        e.peaks.name = d.at("name").get<std::string>();
        e.peaks.memoryBandwidth = d.at("memory_bandwidth_gbps").get<double>() * 1e9;
        if (const auto it = d.find("link_gbps_per_direction"); it != d.end())
            e.peaks.linkBandwidth = it->get<double>() * 1e9;
        const auto& flops = d.at("peak_tflops");
        for (size_t t = 0; t < kPeakTypeCount; ++t) {
            const auto it = flops.find(kPeakTypeNames[t]);
            if (it != flops.end() && it->is_number()) e.peaks.flops[t] = it->get<double>() * 1e12;
        }
        const auto& m = d.at("match");
        e.match.names = strings(m.at("names"));
        if (const auto it = m.find("not"); it != m.end()) e.match.exclusions = strings(*it);
        if (const auto it = m.find("sms"); it != m.end()) e.match.sms = it->get<int>();
        if (const auto it = m.find("memory_gib"); it != m.end())
            e.match.memoryGib = std::pair{it->at(0).get<double>(), it->at(1).get<double>()};
        out.push_back(std::move(e));
    }
    return out;
}

const std::vector<Entry>& table() {
    static const std::vector<Entry> entries = parseTable();
    return entries;
}

bool holds(const Conditions& c, const DeviceIdentity& d) {
    const std::string name = lower(d.name);
    const auto in = [&](const std::string& s) { return name.find(s) != std::string::npos; };
    if (std::none_of(c.names.begin(), c.names.end(), in)) return false;
    if (std::any_of(c.exclusions.begin(), c.exclusions.end(), in)) return false;
    if (c.sms && d.sms && *c.sms != *d.sms) return false;
    if (c.memoryGib && d.memoryBytes) {
        const double gib = static_cast<double>(*d.memoryBytes) / double(uint64_t{1} << 30);
        if (gib < c.memoryGib->first || gib >= c.memoryGib->second) return false;
    }
    return true;
}

}  // namespace

const char* peakTypeName(PeakType t) {
    return kPeakTypeNames[static_cast<size_t>(t)];
}

std::optional<PeakType> peakTypeNamed(std::string_view name) {
    for (size_t t = 0; t < kPeakTypeCount; ++t)
        if (name == kPeakTypeNames[t]) return static_cast<PeakType>(t);
    return std::nullopt;
}

const std::vector<DevicePeaks>& knownDevicePeaks() {
    static const std::vector<DevicePeaks> peaks = [] {
        std::vector<DevicePeaks> out;
        for (const Entry& e : table())
            out.push_back(e.peaks);
        return out;
    }();
    return peaks;
}

std::optional<DevicePeaks> matchDevicePeaks(const DeviceIdentity& device) {
    for (const Entry& e : table())
        if (holds(e.match, device)) return e.peaks;
    return std::nullopt;
}

DeviceIdentity deviceIdentity(const Trace& trace, const GpuDevice& gpu) {
    DeviceIdentity d;
    d.name = propertyOfDevice(deviceNamesFromProperties(trace), gpu.index).value_or(gpu.name);
    d.memoryBytes = propertyOfDevice(deviceMemoryFromProperties(trace), gpu.index);
    d.sms = propertyOfDevice(deviceSmsFromProperties(trace), gpu.index);
    return d;
}

std::optional<DevicePeaks> parsePeaks(std::string_view text, std::string* error) {
    auto fail = [&](std::string why) -> std::optional<DevicePeaks> {
        if (error) *error = std::move(why);
        return std::nullopt;
    };
    DevicePeaks p;
    p.name = "peaks given";
    bool any = false;
    for (size_t at = 0; at <= text.size();) {
        const size_t comma = std::min(text.find(',', at), text.size());
        const std::string_view item = text.substr(at, comma - at);
        at = comma + 1;
        if (item.empty()) {
            if (comma >= text.size()) break;
            return fail("an empty item in \"" + std::string(text) + "\"");
        }
        const size_t eq = item.find('=');
        if (eq == std::string_view::npos)
            return fail("\"" + std::string(item) + "\" is not TYPE=VALUE (e.g. bf16=989.4)");
        const std::string key = lower(item.substr(0, eq));
        const std::string_view number = item.substr(eq + 1);
        double v = 0;
        const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
        if (ec != std::errc() || end != number.data() + number.size() || !std::isfinite(v) ||
            v <= 0)
            return fail("\"" + std::string(number) + "\" (for " + key +
                        ") is not a positive number");
        if (key == "bw") {
            p.memoryBandwidth = v * 1e9;  // GB/s
        } else if (key == "link") {
            p.linkBandwidth = v * 1e9;  // GB/s, one way
        } else if (const auto t = peakTypeNamed(key)) {
            p.flops[static_cast<size_t>(*t)] = v * 1e12;  // TFLOP/s
        } else {
            return fail("\"" + key +
                        "\" is not a data type (fp64, fp64_tensor, fp32, tf32, bf16, fp16, fp8, "
                        "int8), bw or link");
        }
        any = true;
    }
    if (!any) return fail("no peak given (e.g. bf16=989.4,bw=3350)");
    return p;
}

}  // namespace gapscope
