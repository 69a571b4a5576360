#pragma once

#include <optional>

#include "ctrl/core/object.hpp"

namespace ctrl::webhook::conversion::internal {

// The JSON-level work of a conversion that keeps what a version cannot say (docs/decisions.md,
// decision 71). An object's "content" is every top-level member but apiVersion, kind and metadata:
// what conversion functions carry from one version to another (spec, status, any other member).

// A deep copy of object's content, as a JSON object.
Object ContentOf(const Object& object);
// Replaces object's content with content's members (apiVersion, kind and metadata stay).
void SetContent(Object& object, const Object& content);

// The three-way merge that restores what one version could not carry: base is the content as the
// other version saw it (mine projected through that version and back), theirs the content that
// version now says, mine the content saved before. Where theirs equals base (the other version
// did not change it), mine is taken whole; where both are objects, member by member; elsewhere
// theirs (a change made through the other version wins). Absent members are absent values.
Object MergeThreeWay(const Object& base, const Object& theirs, const Object& mine);

// A deep copy of the value at path (any JSON value, null included); nullopt when a member on the
// path is missing or a value on the way is not an object.
std::optional<Object> ValueAt(const Object& object, FieldPath path);

}  // namespace ctrl::webhook::conversion::internal
