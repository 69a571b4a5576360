#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "ctrl/core/status_or.hpp"
#include "ctrl/rest/watch_event.hpp"

namespace ctrl::rest {
class WatchObjectSink;
}  // namespace ctrl::rest

namespace ctrl::rest::internal {

// Bytes the fast path may read past the end of a line. The caller's buffer must have them readable.
inline constexpr std::size_t kWatchEventParserPadding = 64;

// Parses one watch event line {"type":"ADDED","object":{...}} whose first byte is at `offset` in the stream
// (for messages). The object is built straight into the event's Object. Lines up to fast_path_max_bytes go
// through simdjson, which indexes the line several times faster than RapidJSON parses it, and are then
// built through the document's SAX interface; RapidJSON parses the others, and any line simdjson refuses,
// so errors and edge cases (integers beyond 64 bits, depth) read exactly as Object::Parse reads them.
// BadRequest for malformed JSON (stream byte offset, reason, snippet), a wrapper that is no JSON object, a
// missing or unknown type, or an object that is no JSON object. drop_managed_fields: the object comes without
// metadata.managedFields (the fast path never builds them). sink: when it takes the event's type and the line
// goes through simdjson, the object is written to it instead of an Object (WatchEvent::object_in_sink, the
// sink Begun and Finished); a line only RapidJSON reads builds its Object as usual.
StatusOr<WatchEvent> ParseWatchEvent(std::string_view line, std::uint64_t offset, std::size_t fast_path_max_bytes,
                                     bool drop_managed_fields = false, WatchObjectSink* sink = nullptr);

// The type a watch event's "type" names ("ADDED", ...), or nullopt for another name.
std::optional<WatchEvent::Type> WatchEventTypeNamed(std::string_view name);

}  // namespace ctrl::rest::internal
