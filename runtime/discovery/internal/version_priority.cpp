#include "ctrl/discovery/internal/version_priority.hpp"

#include <charconv>
#include <cstdint>
#include <tuple>

namespace ctrl::discovery::internal {
namespace {

struct ParsedVersion {
    bool kube = false;
    int64_t major = 0;
    int stability = 0;  // 2 GA, 1 beta, 0 alpha
    int64_t minor = 0;
};

bool ParseNumber(std::string_view& s, int64_t& out) {
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    if (ec != std::errc() || end == s.data())
        return false;
    s.remove_prefix(static_cast<std::size_t>(end - s.data()));
    return true;
}

ParsedVersion Parse(std::string_view v) {
    ParsedVersion parsed;
    if (v.size() < 2 || v[0] != 'v' || v[1] < '1' || v[1] > '9')
        return parsed;
    v.remove_prefix(1);
    if (!ParseNumber(v, parsed.major))
        return parsed;
    if (v.empty()) {
        parsed.kube = true;
        parsed.stability = 2;
        return parsed;
    }
    if (v.starts_with("beta")) {
        parsed.stability = 1;
        v.remove_prefix(4);
    } else if (v.starts_with("alpha")) {
        parsed.stability = 0;
        v.remove_prefix(5);
    } else {
        return parsed;
    }
    if (!ParseNumber(v, parsed.minor) || !v.empty())
        return parsed;
    parsed.kube = true;
    return parsed;
}

}  // namespace

bool PreferredVersion(std::string_view a, std::string_view b) {
    const ParsedVersion pa = Parse(a);
    const ParsedVersion pb = Parse(b);
    if (pa.kube != pb.kube)
        return pa.kube;
    if (!pa.kube)
        return a < b;
    if (pa.stability == 2 && pb.stability == 2)
        return pa.major > pb.major;
    if (pa.stability != pb.stability) {
        // GA beats any pre-release; then beta beats alpha, whatever the majors.
        return pa.stability > pb.stability;
    }
    return std::tie(pa.major, pa.minor) > std::tie(pb.major, pb.minor);
}

}  // namespace ctrl::discovery::internal
