#pragma once

#include <string>
#include <string_view>

#include "runtime/core/internal/json.hpp"

namespace ctrl::rest::internal {

// managedFields' FieldsV1 ({"f:metadata":{"f:labels":{".":{},"f:app":{}}},"k:{\"port\":80}":{}})
// built into a document in one pass, with no parser's index between, for the shape the API server
// writes. Anything else goes to a full JSON parser.

// Whether `json` has that shape: objects and strings only, no whitespace, strings of printable
// ASCII whose only escapes are \" \\ and \/, nested at most 64 deep.
bool IsPlainJson(std::string_view json);
// Builds `json`, which IsPlainJson accepts, into doc as one value: what a JSON parser fed to the
// document's SAX interface builds (strings unescaped and copied, members in order). `scratch`
// holds unescaped strings in passing.
bool EmitPlainJson(std::string_view json, ctrl::internal::JsonDocument::Document& doc, std::string& scratch);

}  // namespace ctrl::rest::internal
