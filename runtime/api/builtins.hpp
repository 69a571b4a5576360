#pragma once

#include "ctrl/core/status.hpp"
#include "ctrl/scheme/scheme.hpp"

namespace ctrl::api {

// Registers every built-in Kubernetes kind this runtime has a typed view for (client-go's
// kubernetes/scheme, for our kinds): core/v1, coordination.k8s.io/v1, apiextensions.k8s.io/v1.
// A program adds its own groups after it (the AddToScheme functions ctrl-gen generates for its CRDs).
Status AddAllBuiltinsToScheme(scheme::Scheme& scheme);

}  // namespace ctrl::api
