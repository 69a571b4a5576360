#pragma once

#include "ctrl/core/status.hpp"
#include "ctrl/scheme/scheme.hpp"

// The coordination.k8s.io API group, version v1: Lease.
namespace ctrl::api::coordinationv1 {

// Registers Lease and LeaseList.
Status AddToScheme(scheme::Scheme& scheme);

}  // namespace ctrl::api::coordinationv1
