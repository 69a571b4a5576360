#pragma once

#include <chrono>
#include <string_view>

#include "ctrl/core/status_or.hpp"

namespace ctrl {

// Parses an RFC 3339 time as Kubernetes writes them: "2024-05-01T10:00:00Z", with an optional
// fraction of 1-9 digits (kept to the clock's precision) and "Z" or a "+hh:mm"/"-hh:mm" offset;
// 't' and 'z' are accepted for 'T' and 'Z'. BadRequest ("invalid RFC 3339 time ...") for anything
// else, including out-of-range fields (month 13, Feb 30, second 60, offset +24:00), and for a time
// the clock cannot hold (outside the years 1678-2262). The one parser of the project: the exec
// credential's expirationTimestamp (rest) and the typed views' metav1.Time (api) both use it.
StatusOr<std::chrono::system_clock::time_point> ParseRfc3339(std::string_view text);

}  // namespace ctrl
