#pragma once

#include "runtime/core/status.hpp"
#include "runtime/scheme/scheme.hpp"

namespace ctrl::api {

// Registers every built-in Kubernetes kind this runtime has a typed view for (client-go's
// kubernetes/scheme, for our kinds): core/v1, coordination.k8s.io/v1, apiextensions.k8s.io/v1.
// A program adds its own groups after it (e.g. vpcresourcesv1beta1::AddToScheme).
Status AddAllBuiltinsToScheme(scheme::Scheme& scheme);

}  // namespace ctrl::api
