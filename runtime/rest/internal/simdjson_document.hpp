#pragma once

#include <simdjson.h>

#include "runtime/core/internal/json.hpp"

namespace ctrl::rest::internal {

// Feeds a simdjson value to a RapidJSON document's SAX interface, which builds each object and
// array at its exact size in the document's pool, as its own parser would. False when the document
// refuses a value.
bool EmitSimdjson(simdjson::dom::element value, ctrl::internal::JsonDocument::Document& doc);

}  // namespace ctrl::rest::internal
