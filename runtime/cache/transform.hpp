#pragma once

#include <functional>

#include "ctrl/core/object.hpp"
#include "ctrl/core/status.hpp"

namespace ctrl::cache {

// Changes an object as it enters a cache, before anything is stored or handed to event handlers
// (client-go's TransformFunc): drop fields nobody reads to save memory. It must not change the
// namespace or name. An error drops the object and is reported where it entered (a failed list is
// retried). A null TransformFunc keeps objects as the server sent them.
using TransformFunc = std::function<Status(Object&)>;

// The default transform: drops metadata.managedFields (often half of an object's bytes).
Status StripManagedFields(Object& object);

}  // namespace ctrl::cache
