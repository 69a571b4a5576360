#include "ctrl/api/coordination_v1.hpp"

#include "ctrl/api/lease.hpp"

namespace ctrl::api::coordinationv1 {

Status AddToScheme(scheme::Scheme& scheme) {
    return scheme.AddKnownType<Lease>();
}

}  // namespace ctrl::api::coordinationv1
