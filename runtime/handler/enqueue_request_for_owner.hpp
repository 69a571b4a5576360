#pragma once

#include <memory>

#include "ctrl/core/gvk.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/discovery/rest_mapper.hpp"
#include "ctrl/handler/handler.hpp"
#include "ctrl/scheme/scheme.hpp"
#include "ctrl/scheme/typed_object.hpp"

namespace ctrl::handler {

// The handler of owned objects (controller-runtime's EnqueueRequestForOwner): for the object of
// each event, enqueues the objects named by its ownerReferences whose apiVersion's group and kind
// are owner_kind's (the version is ignored: an owner reference written at apps/v1beta2 still
// names a Deployment). With only_controller (controller-runtime's OnlyControllerOwner) only the
// reference marked controller: true counts. An update enqueues the owners of the old and the new
// object, each once.
//
// The request's namespace is the owned object's when owner_kind is namespaced and empty when it
// is cluster-scoped; the scope comes from mapper, asked once in Prepare (a failed lookup, e.g.
// NoMatch while the owner's CRD is not installed, is Prepare's error naming owner_kind). Used
// without Prepare, the handler asks mapper's CachedMapping at the first event and drops events
// (logged) while the scope is unknown. An owner reference whose apiVersion does not parse is
// logged and skipped. mapper must outlive the handler. scheme is read only by the typed form
// below; this one takes it so that both have controller-runtime's arguments.
std::shared_ptr<EventHandler> EnqueueRequestForOwner(const scheme::Scheme& scheme, discovery::RESTMapper& mapper,
                                                     GroupVersionKind owner_kind, bool only_controller = false);

namespace internal {
// The handler for an owner kind that may have failed to resolve: Prepare returns that failure.
std::shared_ptr<EventHandler> EnqueueRequestForOwnerKind(StatusOr<GroupVersionKind> owner_kind,
                                                         discovery::RESTMapper& mapper, bool only_controller);
}  // namespace internal

// The same for the owner kind of typed kind T, as scheme registers it; T not registered in
// scheme is Prepare's error (NotRegistered), as it would be controller-runtime's panic.
template <scheme::TypedObject T>
std::shared_ptr<EventHandler> EnqueueRequestForOwner(const scheme::Scheme& scheme, discovery::RESTMapper& mapper,
                                                     bool only_controller = false) {
    return internal::EnqueueRequestForOwnerKind(scheme.ObjectKind<T>(), mapper, only_controller);
}

}  // namespace ctrl::handler
