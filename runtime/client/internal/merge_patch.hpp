#pragma once

#include <string>

#include "ctrl/core/object.hpp"
#include "ctrl/core/status_or.hpp"

namespace ctrl::client::internal {

// An RFC 7386 JSON merge patch that turns original into modified (evanphx/json-patch's
// CreateMergePatch, which controller-runtime's MergeFrom uses): the members modified adds or
// changes, null for the members it drops, objects compared member by member, arrays and other
// values sent whole when they differ. Members are written in byte order of their names, as Go
// writes maps; "{}" when the two are equal. BadRequest when either is not a JSON object.
// A null in modified cannot be told apart from a removal: the patch deletes that member.
StatusOr<std::string> CreateMergePatch(const Object& original, const Object& modified);

}  // namespace ctrl::client::internal
