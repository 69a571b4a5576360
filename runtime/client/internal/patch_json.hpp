#pragma once

// JSON helpers the patch computations share: writing with object members sorted (Go's encoding/json
// writes maps sorted by key, so the patches read as apimachinery's do) and the pieces of a JSON pointer.

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <string>
#include <string_view>

#include "ctrl/core/internal/json.hpp"

namespace ctrl::client::internal {

using JsonValue = ctrl::internal::JsonValue;
using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

// Writes value with the members of every object in byte order of their names.
void WriteSortedJson(const JsonValue& value, JsonWriter& writer);
std::string WriteSortedJson(const JsonValue& value);

// Appends "/" and name escaped for a JSON pointer (RFC 6901: "~" as "~0", "/" as "~1") to pointer.
void AppendPointerToken(std::string& pointer, std::string_view name);

}  // namespace ctrl::client::internal
