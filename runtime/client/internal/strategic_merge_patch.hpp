#pragma once

#include <string>

#include "ctrl/client/internal/strategic_merge_schema.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/status_or.hpp"

namespace ctrl::client::internal {

// A two-way strategic merge patch from original to modified, as apimachinery's
// strategicpatch.CreateTwoWayMergePatch computes it for the Go type schema describes:
//  - object members as in a JSON merge patch (changed values, null for removed members);
//  - a list with patchStrategy merge and a merge key: only the added elements (whole), the changed
//    ones (their changed fields plus the key) and {"<key>": ..., "$patch": "delete"} for removed
//    ones, in modified's order with the deletions last, plus "$setElementOrder/<field>" (every
//    element's key, in modified's order) when anything changed or the order did;
//  - a merge list of primitives (finalizers): the added values, the removed ones in
//    "$deleteFromPrimitiveList/<field>" and "$setElementOrder/<field>" = modified;
//  - retainKeys fields: "$retainKeys" naming modified's fields when the patch of that object is
//    not empty or drops a field;
//  - other lists are sent whole when they differ.
// Members are written in byte order of their names, as Go writes maps; "{}" when equal.
// BadRequest when either is not a JSON object, when an element of a merged list of objects lacks
// its merge key, or when a merged list mixes element types or holds lists.
// Fields the schema does not name are patched the plain way (Go refuses a changed list or object
// field its struct does not declare; custom fields of built-in kinds do not exist in practice).
StatusOr<std::string> CreateTwoWayStrategicMergePatch(const Object& original, const Object& modified,
                                                      const PatchSchema& schema);

}  // namespace ctrl::client::internal
