#pragma once

#include "ctrl/core/object.hpp"
#include "ctrl/core/status.hpp"

namespace ctrl::webhook::conversion {

// Copies the value at from_path in from (any JSON value: an object, a list, a scalar) to to_path
// in to, replacing what is there; when from has nothing at from_path, to_path is removed. For
// conversion functions, to carry a field the two versions share or one that moved:
//   CopyField(*this, hub, {"status"});
//   CopyField(*this, {"spec", "configMapName"}, hub, {"spec", "source", "name"});
// BadRequest naming to_path (to unchanged) when a value on its way is not an object.
Status CopyField(const Object& from, FieldPath from_path, Object& to, FieldPath to_path);
inline Status CopyField(const Object& from, Object& to, FieldPath path) {
    return CopyField(from, path, to, path);
}

}  // namespace ctrl::webhook::conversion
