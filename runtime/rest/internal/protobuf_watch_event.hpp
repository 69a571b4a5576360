#pragma once

#include <cstdint>
#include <string_view>

#include "ctrl/core/status_or.hpp"
#include "ctrl/rest/object_sink.hpp"
#include "ctrl/rest/watch_event.hpp"

namespace ctrl::rest::internal {

// One protobuf watch event (a frame's payload, its first byte at `offset` in the stream) decoded
// straight into a WatchEvent: the transcoder's values build the object's document, with no JSON
// text and no second parse between (FieldsV1 and RawExtension, which protobuf holds as JSON text,
// are parsed where they occur). The event equals what ParseWatchEvent makes of the transcoder's
// text (protobuf::AppendJsonForWatchEvent). Errors, each naming the event's byte offset: the
// transcoder's (BadRequest naming the type and field, NoMatch for a kind without a built-in
// schema), and BadRequest for an event without a known type or an object.
//
// With a sink that Takes the event's type, the object's values go to the sink instead (between its
// Begin and Finish) and the event has object_in_sink set. The type must then come before the
// object, as the API server writes it; an event whose object comes first is built as usual.
StatusOr<WatchEvent> DecodeProtobufWatchEvent(std::string_view event, std::uint64_t offset, bool drop_managed_fields,
                                              WatchObjectSink* sink = nullptr);

}  // namespace ctrl::rest::internal
