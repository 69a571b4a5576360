#pragma once

#include <string_view>

#include "ctrl/core/object.hpp"

namespace ctrl::rest {

// One event of a watch stream: what happened and the object it happened to. For kBookmark the
// object carries only kind, apiVersion and metadata.resourceVersion (and maybe annotations); for
// kError it is the metav1.Status the server sent (StatusFromWatchEvent reads it).
struct WatchEvent {
    enum class Type { kAdded, kModified, kDeleted, kBookmark, kError };

    Type type = Type::kAdded;
    Object object;
    // The object went to the WatchObjectSink the caller gave the decoder, not into `object` (which
    // is then empty).
    bool object_in_sink = false;
};

// The type as it appears on the wire: "ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR".
constexpr std::string_view WatchEventTypeName(WatchEvent::Type type) {
    switch (type) {
        case WatchEvent::Type::kAdded:
            return "ADDED";
        case WatchEvent::Type::kModified:
            return "MODIFIED";
        case WatchEvent::Type::kDeleted:
            return "DELETED";
        case WatchEvent::Type::kBookmark:
            return "BOOKMARK";
        case WatchEvent::Type::kError:
            return "ERROR";
    }
    return "UNKNOWN";
}

}  // namespace ctrl::rest
