#include "ctrl/controllerutil/owner.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace ctrl::controllerutil {
namespace {

// "ns/name" as controller-runtime prints an object in these errors ("/name" when cluster-scoped).
std::string Describe(const Object& object) {
    return std::string(object.Namespace()) + "/" + std::string(object.Name());
}

// Whether a and b name the same object: group, kind and name (controllerutil's referSameObject).
// A reference whose apiVersion does not parse names nothing.
bool ReferSameObject(const OwnerReference& a, const OwnerReference& b) {
    const StatusOr<GroupVersion> a_gv = GroupVersion::Parse(a.api_version);
    const StatusOr<GroupVersion> b_gv = GroupVersion::Parse(b.api_version);
    if (!a_gv.Ok() || !b_gv.Ok())
        return false;
    return a_gv->group == b_gv->group && a.kind == b.kind && a.name == b.name;
}

std::vector<OwnerReference>::iterator FindReference(std::vector<OwnerReference>& references,
                                                    const OwnerReference& ref) {
    return std::find_if(references.begin(), references.end(),
                        [&](const OwnerReference& r) { return ReferSameObject(r, ref); });
}

// Refuses a namespaced owner of a cluster-scoped object or of an object in another namespace
// (controllerutil's validateOwner); the garbage collector would treat the reference as dangling.
Status ValidateOwner(const Object& owner, const Object& object) {
    const std::string_view owner_ns = owner.Namespace();
    if (owner_ns.empty())
        return OkStatus();
    const std::string_view object_ns = object.Namespace();
    if (object_ns.empty()) {
        return BadRequestError("cluster-scoped resource must not have a namespace-scoped owner, owner's namespace " +
                               std::string(owner_ns));
    }
    if (owner_ns != object_ns) {
        return BadRequestError("cross-namespace owner references are disallowed, owner's namespace " +
                               std::string(owner_ns) + ", obj's namespace " + std::string(object_ns));
    }
    return OkStatus();
}

// A reference to owner with only apiVersion, kind, name and uid set.
StatusOr<OwnerReference> ReferenceTo(const Object& owner, std::type_index owner_type, const scheme::Scheme& scheme) {
    CTRL_ASSIGN_OR_RETURN(const GroupVersionKind gvk, internal::OwnerKind(owner, owner_type, scheme));
    OwnerReference ref;
    ref.api_version = gvk.ApiVersion();
    ref.kind = gvk.kind;
    ref.name = std::string(owner.Name());
    ref.uid = std::string(owner.Uid());
    return ref;
}

// Replaces the reference that names the same object as ref, or appends ref.
void Upsert(Object& object, OwnerReference ref) {
    std::vector<OwnerReference> references = object.OwnerReferences();
    if (auto it = FindReference(references, ref); it != references.end()) {
        *it = std::move(ref);
    } else {
        references.push_back(std::move(ref));
    }
    object.SetOwnerReferences(references);
}

}  // namespace

bool IsAlreadyOwned(const Status& status) {
    return IsConflict(status) && status.Reason() == kAlreadyOwnedReason;
}

bool HasControllerReference(const Object& object) {
    return GetControllerOf(object).has_value();
}

std::optional<OwnerReference> GetControllerOf(const Object& object) {
    for (OwnerReference& ref : object.OwnerReferences()) {
        if (ref.controller.value_or(false))
            return std::move(ref);
    }
    return std::nullopt;
}

namespace internal {

StatusOr<GroupVersionKind> OwnerKind(const Object& owner, std::type_index owner_type, const scheme::Scheme& scheme) {
    if (!owner.ApiVersion().empty() && !owner.Kind().empty())
        return owner.GetGroupVersionKind();
    if (owner_type == std::type_index(typeid(Object)) ||
        owner_type == std::type_index(typeid(client::PartialObjectMetadata))) {
        return BadRequestError("owner " + Describe(owner) + " has no apiVersion and kind");
    }
    const StatusOr<std::vector<GroupVersionKind>> kinds = scheme.ObjectKindsFor(owner_type);
    if (!kinds.Ok()) {
        return BadRequestError(
            "owner " + Describe(owner) +
            " has no apiVersion and kind, and its type has none in the scheme: " + kinds.GetStatus().Message());
    }
    if (kinds->size() > 1) {
        return BadRequestError("owner " + Describe(owner) +
                               " has no apiVersion and kind, and its type has several in the scheme; refusing "
                               "to guess at one");
    }
    return kinds->front();
}

Status SetControllerReference(const Object& owner, std::type_index owner_type, Object& controlled,
                              const scheme::Scheme& scheme, const OwnerReferenceOptions& options) {
    CTRL_RETURN_IF_ERROR(ValidateOwner(owner, controlled));
    CTRL_ASSIGN_OR_RETURN(OwnerReference ref, ReferenceTo(owner, owner_type, scheme));
    ref.controller = true;
    ref.block_owner_deletion = options.block_owner_deletion.value_or(true);
    if (const std::optional<OwnerReference> existing = GetControllerOf(controlled);
        existing.has_value() && !ReferSameObject(*existing, ref)) {
        return ConflictError("Object " + Describe(controlled) + " is already owned by another " + existing->kind +
                             " controller " + existing->name)
            .WithReason(std::string(kAlreadyOwnedReason));
    }
    Upsert(controlled, std::move(ref));
    return OkStatus();
}

Status SetOwnerReference(const Object& owner, std::type_index owner_type, Object& object, const scheme::Scheme& scheme,
                         const OwnerReferenceOptions& options) {
    CTRL_RETURN_IF_ERROR(ValidateOwner(owner, object));
    CTRL_ASSIGN_OR_RETURN(OwnerReference ref, ReferenceTo(owner, owner_type, scheme));
    ref.block_owner_deletion = options.block_owner_deletion;
    Upsert(object, std::move(ref));
    return OkStatus();
}

Status RemoveOwnerReference(const Object& owner, std::type_index owner_type, Object& object,
                            const scheme::Scheme& scheme) {
    std::vector<OwnerReference> references = object.OwnerReferences();
    if (references.empty())
        return NotFoundError("object " + Describe(object) + " has no owner references");
    CTRL_ASSIGN_OR_RETURN(const OwnerReference ref, ReferenceTo(owner, owner_type, scheme));
    const auto it = FindReference(references, ref);
    if (it == references.end()) {
        return NotFoundError("object " + Describe(object) + " has no owner reference to " + ref.kind + " " +
                             Describe(owner));
    }
    references.erase(it);
    object.SetOwnerReferences(references);
    return OkStatus();
}

Status RemoveControllerReference(const Object& owner, std::type_index owner_type, Object& object,
                                 const scheme::Scheme& scheme) {
    if (!HasControllerReference(object))
        return NotFoundError("object " + Describe(object) + " has no controller reference");
    CTRL_ASSIGN_OR_RETURN(const OwnerReference ref, ReferenceTo(owner, owner_type, scheme));
    std::vector<OwnerReference> references = object.OwnerReferences();
    const auto it = FindReference(references, ref);
    if (it == references.end()) {
        return NotFoundError("object " + Describe(object) + " has no controller reference to " + ref.kind + " " +
                             Describe(owner));
    }
    if (!it->controller.value_or(false)) {
        return NotFoundError("object " + Describe(object) + "'s reference to " + ref.kind + " " + Describe(owner) +
                             " is not its controller reference");
    }
    references.erase(it);
    object.SetOwnerReferences(references);
    return OkStatus();
}

StatusOr<bool> HasOwnerReference(const std::vector<OwnerReference>& references, const Object& owner,
                                 std::type_index owner_type, const scheme::Scheme& scheme) {
    CTRL_ASSIGN_OR_RETURN(const OwnerReference ref, ReferenceTo(owner, owner_type, scheme));
    return std::any_of(references.begin(), references.end(),
                       [&](const OwnerReference& r) { return ReferSameObject(r, ref); });
}

}  // namespace internal
}  // namespace ctrl::controllerutil
