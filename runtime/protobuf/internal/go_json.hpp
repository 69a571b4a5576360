#pragma once

#include <cstdint>
#include <string>
#include <string_view>

// Values written as Go's encoding/json (and the types that marshal themselves) writes them.
// Internal to ctrl::protobuf.
namespace ctrl::protobuf::internal {

// A JSON string as encoding/json writes one with HTML escaping on (the API server's encoder):
// `<`, `>`, `&`, U+2028 and U+2029 as \u escapes, \b \f \n \r \t, other control characters as
// \u00xx, invalid UTF-8 as \ufffd.
void AppendGoString(std::string& out, std::string_view s);
// The same without the quotes.
void AppendGoStringContents(std::string& out, std::string_view s);

// metav1.Time / MicroTime at `seconds` (+ `nanos`) since the Unix epoch, UTC, quoted:
// "2006-01-02T15:04:05Z" or, with micro, "2006-01-02T15:04:05.000000Z" (nanos truncated).
void AppendRfc3339(std::string& out, std::int64_t seconds, std::int64_t nanos, bool micro);

// time.Duration.String() of `nanos`, quoted: "1h2m3.5s", "1.5ms", "0s".
void AppendGoDuration(std::string& out, std::int64_t nanos);

// The length of the valid UTF-8 sequence starting at s[i] (Go's utf8.DecodeRune rules), or 0 when
// it is not one; sets `code` to its code point.
std::size_t Utf8SequenceLength(std::string_view s, std::size_t i, unsigned& code);

// Standard base64 with padding, quoted.
void AppendBase64(std::string& out, std::string_view bytes);

// What encoding/json does with a Marshaler's output: the JSON text `raw` compacted (whitespace
// outside strings dropped) with the escaping of AppendGoString inside strings. False when `raw`
// is not a well-formed JSON value or holds invalid UTF-8 (which encoding/json would copy, and which
// no JSON parser ctrl uses accepts).
bool AppendCompactJson(std::string& out, std::string_view raw);

}  // namespace ctrl::protobuf::internal
