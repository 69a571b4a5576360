#pragma once

#include "ctrl/core/gvk.hpp"
#include "ctrl/core/object.hpp"

namespace ctrl::fake::internal {

// What the server's strategies set on a built-in kind it creates: a namespace's phase Active,
// "kubernetes" finalizer and kubernetes.io/metadata.name label; a pod's phase Pending and QoS class.
// Other kinds are left as they are.
void SetCreateDefaults(const GroupVersionKind& gvk, Object& object);

}  // namespace ctrl::fake::internal
