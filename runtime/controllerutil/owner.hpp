#pragma once

#include <optional>
#include <string_view>
#include <typeindex>
#include <typeinfo>
#include <vector>

#include "ctrl/client/object_form.hpp"
#include "ctrl/core/gvk.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/scheme/scheme.hpp"

// Owner references as controller-runtime's controllerutil writes them: the controller reference
// that garbage collection and EnqueueRequestForOwner follow, plain owner references, and their
// removal. Two references name the same owner when their group, kind and name match (the version
// and uid are not compared). The owner's kind is its apiVersion and kind, or, when it carries
// none, the kind the scheme registers for its C++ type (apiutil.GVKForObject).
// Nothing here does I/O: the caller writes the object afterwards.
namespace ctrl::controllerutil {

// The Reason of the Conflict SetControllerReference returns when the object already has another
// controller (controller-runtime's AlreadyOwnedError):
//   Object default/web-0 is already owned by another ReplicaSet controller web
inline constexpr std::string_view kAlreadyOwnedReason = "AlreadyOwned";

// Whether status is SetControllerReference's "already owned" error.
bool IsAlreadyOwned(const Status& status);

// How a reference is written (controllerutil.OwnerReferenceOption).
struct OwnerReferenceOptions {
    // WithBlockOwnerDeletion: the reference's blockOwnerDeletion. Default: true for a controller
    // reference, unset for a plain owner reference.
    std::optional<bool> block_owner_deletion{};
};

namespace internal {
// What the templates below call: owner_type is the C++ type the caller passed the owner as.
StatusOr<GroupVersionKind> OwnerKind(const Object& owner, std::type_index owner_type, const scheme::Scheme& scheme);
Status SetControllerReference(const Object& owner, std::type_index owner_type, Object& controlled,
                              const scheme::Scheme& scheme, const OwnerReferenceOptions& options);
Status SetOwnerReference(const Object& owner, std::type_index owner_type, Object& object, const scheme::Scheme& scheme,
                         const OwnerReferenceOptions& options);
Status RemoveOwnerReference(const Object& owner, std::type_index owner_type, Object& object,
                            const scheme::Scheme& scheme);
Status RemoveControllerReference(const Object& owner, std::type_index owner_type, Object& object,
                                 const scheme::Scheme& scheme);
StatusOr<bool> HasOwnerReference(const std::vector<OwnerReference>& references, const Object& owner,
                                 std::type_index owner_type, const scheme::Scheme& scheme);
}  // namespace internal

// Makes owner the controller of controlled (controllerutil.SetControllerReference): a reference
// with controller and blockOwnerDeletion true, replacing one that already names owner. Errors,
// with controlled unchanged:
//   - Conflict, reason AlreadyOwned: another owner is controlled's controller;
//   - BadRequest: owner is namespaced and controlled is cluster-scoped or in another namespace
//     (a cluster-scoped owner of a namespaced object is fine), or owner's kind is unknown.
// owner should exist on the server: its uid goes into the reference.
template <client::ClientObject T>
Status SetControllerReference(const T& owner, Object& controlled, const scheme::Scheme& scheme,
                              const OwnerReferenceOptions& options = {}) {
    return internal::SetControllerReference(owner, typeid(T), controlled, scheme, options);
}

// Adds a plain (not controller) reference to owner on object (controllerutil.SetOwnerReference),
// replacing one that already names owner. Errors as SetControllerReference's but AlreadyOwned.
template <client::ClientObject T>
Status SetOwnerReference(const T& owner, Object& object, const scheme::Scheme& scheme,
                         const OwnerReferenceOptions& options = {}) {
    return internal::SetOwnerReference(owner, typeid(T), object, scheme, options);
}

// Removes object's reference to owner, controller or not (controllerutil.RemoveOwnerReference).
// NotFound when there is none (IgnoreNotFound when absence is fine).
template <client::ClientObject T>
Status RemoveOwnerReference(const T& owner, Object& object, const scheme::Scheme& scheme) {
    return internal::RemoveOwnerReference(owner, typeid(T), object, scheme);
}

// Removes object's controller reference when it names owner
// (controllerutil.RemoveControllerReference). NotFound when object has no controller reference,
// no reference to owner, or one that is not its controller reference.
template <client::ClientObject T>
Status RemoveControllerReference(const T& owner, Object& object, const scheme::Scheme& scheme) {
    return internal::RemoveControllerReference(owner, typeid(T), object, scheme);
}

// Whether references name owner (controllerutil.HasOwnerReference). BadRequest when owner's kind
// is unknown.
template <client::ClientObject T>
StatusOr<bool> HasOwnerReference(const std::vector<OwnerReference>& references, const T& owner,
                                 const scheme::Scheme& scheme) {
    return internal::HasOwnerReference(references, owner, typeid(T), scheme);
}

// Whether object has a controller reference (controllerutil.HasControllerReference).
bool HasControllerReference(const Object& object);

// object's controller reference, the first with controller true (metav1.GetControllerOf).
std::optional<OwnerReference> GetControllerOf(const Object& object);

}  // namespace ctrl::controllerutil
