#pragma once

#include <string>
#include <string_view>

#include "ctrl/core/status.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/protobuf/json_events.hpp"

// Kubernetes protobuf -> the JSON the API server would send for the same object.
namespace ctrl::protobuf {

// What to send as Accept to get protobuf: objects and lists, and watch streams.
inline constexpr std::string_view kProtobufContentType = "application/vnd.kubernetes.protobuf";
inline constexpr std::string_view kProtobufWatchContentType = "application/vnd.kubernetes.protobuf;stream=watch";
// The first bytes of every protobuf body the API server sends for an object or a list.
inline constexpr std::string_view kEnvelopeMagic{"k8s\0", 4};

// Whether the transcoder knows the Go type of a kind: every kind client-go's scheme registers
// (built-in groups at v0.37.2, and Status). Custom resources are not: read them as JSON.
bool HasBuiltinSchema(std::string_view api_version, std::string_view kind);

// Appends to `out` the compact JSON text kube-apiserver writes for the object (or list) in
// `envelope` (`k8s\0` + runtime.Unknown, a protobuf GET or LIST body): Go struct field order,
// omitempty, zero values, sorted map keys, and each special type as it marshals itself. No
// trailing newline (the server's encoder adds one). Errors: NoMatch for a kind without a
// built-in schema (fall back to JSON); BadRequest naming the type and field for malformed bytes.
// On error `out` holds a partial document.
[[nodiscard]] Status AppendJsonForEnvelope(std::string_view envelope, std::string& out);
[[nodiscard]] StatusOr<std::string> JsonForEnvelope(std::string_view envelope);

// Appends the JSON of one watch event: `event` is a frame's payload in a protobuf watch stream
// (a metav1.WatchEvent whose object is an envelope), written as {"type":...,"object":{...}}.
// drop_managed_fields: the object's metadata.managedFields are read past and not written (what a
// store that strips them would throw away).
[[nodiscard]] Status AppendJsonForWatchEvent(std::string_view event, std::string& out,
                                             bool drop_managed_fields = false);
// The same event as JsonEvents, the values AppendJsonForWatchEvent writes as text: for a caller
// that builds its document straight from them. On error `events` has seen part of the event.
[[nodiscard]] Status WriteWatchEvent(std::string_view event, JsonEvents& events, bool drop_managed_fields = false);

}  // namespace ctrl::protobuf
