#pragma once

#include <string_view>

#include "ctrl/client/internal/strategic_merge_schema.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/status.hpp"

namespace ctrl::fake::internal {

// Applying patches to a stored object, as the API server does before it validates the result.
// Each changes object (a JSON object) in place and leaves it unchanged on failure.

// RFC 7386: members of the patch replace the object's, null removes, objects merge recursively.
// BadRequest for a patch that is not JSON.
Status ApplyMergePatch(Object& object, std::string_view patch);

// RFC 6902: add, remove, replace, move, copy and test, in order. BadRequest for a patch that is not
// a JSON array of operations; Invalid (422, as the server answers) when an operation does not
// apply (a missing path, a failed test).
Status ApplyJsonPatch(Object& object, std::string_view patch);

// A strategic merge patch for a kind whose patch metadata schema describes: lists with a merge
// key are merged by it, merge lists of primitives are joined, and the directives "$patch"
// (delete, replace, merge), "$retainKeys", "$setElementOrder/<field>" and
// "$deleteFromPrimitiveList/<field>" are honoured. Other members as in a merge patch.
Status ApplyStrategicMergePatch(Object& object, std::string_view patch, const client::internal::PatchSchema& schema);

}  // namespace ctrl::fake::internal
