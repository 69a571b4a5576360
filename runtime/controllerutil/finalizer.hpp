#pragma once

#include <string_view>

#include "ctrl/core/object.hpp"

// Finalizers as controller-runtime's controllerutil edits them. Nothing here does I/O: the
// caller writes the object afterwards, when the function says it changed.
namespace ctrl::controllerutil {

// Adds finalizer to object's metadata.finalizers unless it is there; returns whether it added it.
bool AddFinalizer(Object& object, std::string_view finalizer);

// Removes every occurrence of finalizer; returns whether there was one.
bool RemoveFinalizer(Object& object, std::string_view finalizer);

// Whether object's metadata.finalizers holds finalizer.
bool ContainsFinalizer(const Object& object, std::string_view finalizer);

}  // namespace ctrl::controllerutil
