#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ctrl/core/object.hpp"

namespace ctrl::client::internal {

// An RFC 6902 JSON patch that turns original into modified: "remove", "replace" and "add"
// operations with RFC 6901 pointers ("~" written "~0", "/" written "~1"). Objects are compared
// member by member. Arrays keep their common head and tail; the elements between are compared
// index by index, and the longer side's extra elements are removed (from the last) or added.
// Applying the operations in order to original gives modified. "[]" when the two are equal.
// With test_resource_version, the patch starts with a "test" of /metadata/resourceVersion against
// it: the server refuses the patch when the object has changed since (422 Invalid, not Conflict).
std::string CreateJsonPatch(const Object& original, const Object& modified,
                            std::optional<std::string_view> test_resource_version = std::nullopt);

}  // namespace ctrl::client::internal
