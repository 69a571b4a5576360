#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace ctrl::api {

// A point in time as the typed views read and write them: metav1.Time (RFC 3339, whole seconds,
// "2024-05-01T10:00:00Z") and metav1.MicroTime ("2024-05-01T10:00:00.123456Z") both map to it.
using Timestamp = std::chrono::system_clock::time_point;

// Parses "2024-05-01T10:00:00Z", with an optional fraction of 1-9 digits (kept to the clock's
// precision) and "Z" or a "+hh:mm"/"-hh:mm" offset; 't' and 'z' are accepted for 'T' and 'Z'.
// nullopt for anything else, including out-of-range fields (month 13, Feb 30, second 60) and times
// outside the clock's years 1678-2262: ctrl::ParseRfc3339 (ctrl/core/rfc3339.hpp), which says why.
std::optional<Timestamp> ParseRfc3339(std::string_view text);
// metav1.Time: "2024-05-01T10:00:00Z" (UTC; the fraction is truncated).
std::string FormatRfc3339(Timestamp time);
// metav1.MicroTime: "2024-05-01T10:00:00.123456Z" (UTC; always six digits).
std::string FormatRfc3339Micro(Timestamp time);

}  // namespace ctrl::api
