#pragma once

// RFC 3339 timestamps as the API server writes them (metav1.Time and metav1.MicroTime).

#include <optional>
#include <string>
#include <string_view>

#include "ctrl/api/timestamp.hpp"

namespace ctrl::api::internal {

// Parses "2024-05-01T10:00:00Z", with an optional fraction of 1-9 digits (kept to the clock's
// precision) and "Z" or a "+hh:mm"/"-hh:mm" offset; 't' and 'z' are accepted for 'T' and 'Z'.
// nullopt for anything else, including out-of-range fields (month 13, Feb 30, second 60).
std::optional<Timestamp> ParseRfc3339(std::string_view text);
// metav1.Time: "2024-05-01T10:00:00Z" (UTC; the fraction is truncated).
std::string FormatRfc3339(Timestamp time);
// metav1.MicroTime: "2024-05-01T10:00:00.123456Z" (UTC; always six digits).
std::string FormatRfc3339Micro(Timestamp time);

}  // namespace ctrl::api::internal
