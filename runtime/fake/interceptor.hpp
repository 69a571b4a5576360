#pragma once

#include <functional>
#include <string_view>

#include "ctrl/core/gvk.hpp"
#include "ctrl/core/status.hpp"

namespace ctrl::fake {

// One call the fake client is about to make, as an Interceptor sees it.
struct Call {
    // "get", "list", "create", "update", "patch", "delete" or "deletecollection".
    std::string_view verb;
    // "" for the object itself; "status", "eviction", ... for a subresource.
    std::string_view sub_resource;
    GroupVersionKind gvk;
    // The object's namespace and name; the name is empty for list and deletecollection, and for a
    // create with generateName.
    ObjectKey key;
};

// Decides a call before the fake makes it (controller-runtime's interceptor funcs, reduced to
// what tests use them for): an error Status is returned to the caller instead of making the call
// (inject a Conflict, a Timeout, a Forbidden); OK lets the call go on. It may count or record
// calls. Called from whichever thread makes the call, so it must be thread-safe when the client
// is shared by threads.
using Interceptor = std::function<Status(const Call& call)>;

}  // namespace ctrl::fake
