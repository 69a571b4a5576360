#pragma once

#include <chrono>

namespace ctrl::api {

// A point in time as the typed views read and write them: metav1.Time (RFC 3339, whole seconds,
// "2024-05-01T10:00:00Z") and metav1.MicroTime ("2024-05-01T10:00:00.123456Z") both map to it.
using Timestamp = std::chrono::system_clock::time_point;

}  // namespace ctrl::api
