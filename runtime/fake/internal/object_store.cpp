#include "ctrl/fake/internal/object_store.hpp"

#include <algorithm>
#include <chrono>
#include <tuple>
#include <utility>

#include "ctrl/api/timestamp.hpp"
#include "ctrl/core/base64.hpp"
#include "ctrl/fake/internal/api_errors.hpp"
#include "ctrl/fake/internal/apply_patch.hpp"
#include "ctrl/fake/internal/create_defaults.hpp"
#include "ctrl/fake/internal/object_meta.hpp"

namespace ctrl::fake::internal {
namespace {

constexpr int64_t kDefaultPodGracePeriodSeconds = 30;

// Sets to's field at path to a copy of from's (an object), or removes it when from has none.
void CopyField(const Object& from, Object& to, FieldPath path) {
    StatusOr<Object> value = from.NestedMap(path);
    if (value.Ok()) {
        (void)to.SetNestedField(path, *value);
    } else {
        to.RemoveNestedField(path);
    }
}

void CopyString(const Object& from, Object& to, std::string_view field) {
    StatusOr<std::string> value = from.NestedString({"metadata", field});
    if (value.Ok()) {
        (void)to.SetNestedString({"metadata", field}, *value);
    } else {
        to.RemoveNestedField({"metadata", field});
    }
}

// Whether the server takes an update without a resourceVersion for the kind: built-in kinds
// allow it, custom resources do not.
bool AllowsUnconditionalUpdate(const GroupVersionKind& gvk) {
    const std::string& group = gvk.group;
    return group.find('.') == std::string::npos || group.ends_with(".k8s.io");
}

bool IsPod(const GroupVersionKind& gvk) {
    return gvk.group.empty() && gvk.kind == "Pod";
}

// Whether object's name, namespace and indexed fields (from indexes) satisfy every term of selector.
bool MatchesFields(const Object& object, const FieldSelector& selector,
                   const std::map<std::string, IndexFunc>* indexes) {
    for (const FieldTerm& term : selector.Terms()) {
        std::vector<std::string> values;
        if (term.field == "metadata.name") {
            values.emplace_back(object.Name());
        } else if (term.field == "metadata.namespace") {
            values.emplace_back(object.Namespace());
        } else {
            values = indexes->at(term.field)(object);
        }
        const bool any_equal = std::find(values.begin(), values.end(), term.value) != values.end();
        if (any_equal != (term.op == FieldOperator::kEquals))
            return false;
    }
    return true;
}

std::string ContinueToken(std::string_view namespace_name, std::string_view name) {
    return Base64Encode(std::string(namespace_name) + "/" + std::string(name));
}

}  // namespace

ObjectStore::Key ObjectStore::KeyOf(const KindRules& kind, const ObjectKey& key) {
    return Key{kind.mapping.resource.ToGroupResource(), kind.mapping.Namespaced() ? key.namespace_name : std::string(),
               key.name};
}

void ObjectStore::AddIndex(const GroupKind& kind, std::string field, IndexFunc extract) {
    std::lock_guard lock(mutex_);
    indexes_[kind][std::move(field)] = std::move(extract);
}

Status ObjectStore::Seed(const KindRules& kind, Object object) {
    std::lock_guard lock(mutex_);
    if (object.Name().empty())
        return InvalidField(QualifiedKind(kind.mapping.gvk), "", "metadata.name", "FieldValueRequired",
                            "Required value: name is required");
    if (object.DeletionTimestamp() && object.Finalizers().empty())
        return BadRequestError("refusing to start with " + std::string(object.Name()) +
                               ": it has a deletionTimestamp but no finalizers, a state the server never keeps");
    if (!kind.mapping.Namespaced())
        object.SetNamespace("");
    const Key key = KeyOf(kind, object.Key());
    if (objects_.contains(key))
        return AlreadyExists(kind.mapping, object.Name());
    object.SetGroupVersionKind(kind.mapping.gvk);
    if (object.Uid().empty())
        object.SetUid(NewUid());
    if (!object.CreationTimestamp())
        (void)object.SetNestedString({"metadata", "creationTimestamp"}, Now());
    if (kind.tracks_generation && object.Generation() == 0)
        object.SetGeneration(1);
    if (object.ResourceVersion().empty()) {
        object.SetResourceVersion(NextVersionLocked());
    } else {
        uint64_t given = 0;
        for (char c : object.ResourceVersion())
            given = c >= '0' && c <= '9' ? given * 10 + static_cast<uint64_t>(c - '0') : given;
        version_ = std::max(version_, given);
    }
    objects_.emplace(key, std::move(object));
    return OkStatus();
}

StatusOr<ObjectStore::Objects::iterator> ObjectStore::FindLocked(const KindRules& kind, const ObjectKey& key) {
    auto it = objects_.find(KeyOf(kind, key));
    if (it == objects_.end())
        return NotFound(kind.mapping, key.name);
    return it;
}

StatusOr<Object> ObjectStore::Get(const KindRules& kind, const ObjectKey& key) const {
    std::lock_guard lock(mutex_);
    auto it = objects_.find(KeyOf(kind, key));
    if (it == objects_.end())
        return NotFound(kind.mapping, key.name);
    return it->second.DeepCopy();
}

StatusOr<std::vector<ObjectStore::Objects::const_iterator>> ObjectStore::SelectLocked(
    const KindRules& kind, const client::ListOptions& options) const {
    auto index_it = indexes_.find(kind.mapping.gvk.ToGroupKind());
    const std::map<std::string, IndexFunc>* indexes = index_it == indexes_.end() ? nullptr : &index_it->second;
    for (const FieldTerm& term : options.field_selector.Terms()) {
        if (term.field != "metadata.name" && term.field != "metadata.namespace" &&
            (indexes == nullptr || !indexes->contains(term.field))) {
            std::vector<std::string> known{"metadata.name", "metadata.namespace"};
            if (indexes != nullptr) {
                for (const auto& [indexed, extract] : *indexes)
                    known.push_back(indexed);
            }
            return UnknownFieldSelector(term.field, known);
        }
    }
    std::vector<Objects::const_iterator> selected;
    if (options.label_selector.IsNothing())
        return selected;
    const GroupResource resource = kind.mapping.resource.ToGroupResource();
    const bool one_namespace = kind.mapping.Namespaced() && !options.namespace_name.empty();
    Key start{resource, one_namespace ? options.namespace_name : std::string(), ""};
    for (auto it = objects_.lower_bound(start); it != objects_.end() && it->first.resource == resource; ++it) {
        if (one_namespace && it->first.namespace_name != options.namespace_name)
            break;
        if (!options.label_selector.Empty() && !options.label_selector.Matches(it->second.Labels()))
            continue;
        if (!options.field_selector.Empty() && !MatchesFields(it->second, options.field_selector, indexes))
            continue;
        selected.push_back(it);
    }
    return selected;
}

StatusOr<ObjectList> ObjectStore::List(const KindRules& kind, const client::ListOptions& options) const {
    std::lock_guard lock(mutex_);
    CTRL_ASSIGN_OR_RETURN(std::vector<Objects::const_iterator> selected, SelectLocked(kind, options));
    std::size_t first = 0;
    if (!options.continue_token.empty()) {
        StatusOr<std::string> after = Base64Decode(options.continue_token);
        const std::size_t slash = after.Ok() ? after->find('/') : std::string::npos;
        if (slash == std::string::npos)
            return ServerBadRequest("continue key is not valid: " + options.continue_token);
        const std::string last_namespace = after->substr(0, slash);
        const std::string last_name = after->substr(slash + 1);
        while (first < selected.size() && std::tie(selected[first]->first.namespace_name,
                                                   selected[first]->first.name) <= std::tie(last_namespace, last_name))
            ++first;
    }
    std::size_t last = selected.size();
    if (options.limit && *options.limit > 0)
        last = std::min(last, first + static_cast<std::size_t>(*options.limit));
    ObjectList list;
    for (std::size_t i = first; i < last; ++i)
        list.Items().push_back(selected[i]->second.DeepCopy());
    list.SetResourceVersion(std::to_string(version_));
    if (last < selected.size()) {
        list.SetContinue(ContinueToken(selected[last - 1]->first.namespace_name, selected[last - 1]->first.name));
        // The server counts what is left only when nothing is selected (it cannot know otherwise).
        if (options.label_selector.Empty() && options.field_selector.Empty())
            list.SetRemainingItemCount(static_cast<int64_t>(selected.size() - last));
    }
    return list;
}

StatusOr<Object> ObjectStore::Create(const KindRules& kind, Object object, bool dry_run) {
    const GroupVersionKind& gvk = kind.mapping.gvk;
    if (!object.ResourceVersion().empty())  // the server answers 500 with no reason
        return InternalError("resourceVersion should not be set on objects to be created").WithHttpCode(500);
    std::lock_guard lock(mutex_);
    if (object.Name().empty()) {
        if (object.GenerateName().empty())
            return InvalidField(QualifiedKind(gvk), "", "metadata.name", "FieldValueRequired",
                                "Required value: name or generateName is required");
        do {
            object.SetName(GenerateName(object.GenerateName()));
        } while (objects_.contains(KeyOf(kind, object.Key())));
    }
    CTRL_RETURN_IF_ERROR(ValidateName(gvk, object.Name()));
    if (!kind.mapping.Namespaced())
        object.SetNamespace("");
    const Key key = KeyOf(kind, object.Key());
    if (objects_.contains(key))
        return AlreadyExists(kind.mapping, object.Name());
    object.SetGroupVersionKind(gvk);
    object.SetUid(NewUid());
    (void)object.SetNestedString({"metadata", "creationTimestamp"}, Now());
    object.RemoveNestedField({"metadata", "deletionTimestamp"});
    object.RemoveNestedField({"metadata", "deletionGracePeriodSeconds"});
    object.RemoveManagedFields();
    if (kind.status_subresource)
        object.RemoveNestedField({"status"});
    if (kind.tracks_generation) {
        object.SetGeneration(1);
    } else {
        object.RemoveNestedField({"metadata", "generation"});
    }
    SetCreateDefaults(gvk, object);
    if (dry_run)
        return object;
    object.SetResourceVersion(NextVersionLocked());
    objects_.emplace(key, object.DeepCopy());
    return object;
}

StatusOr<Object> ObjectStore::Update(const KindRules& kind, Object object, WriteScope scope, bool dry_run) {
    std::lock_guard lock(mutex_);
    CTRL_ASSIGN_OR_RETURN(Objects::iterator at, FindLocked(kind, object.Key()));
    if (object.ResourceVersion().empty()) {
        if (!AllowsUnconditionalUpdate(kind.mapping.gvk))
            return InvalidField(QualifiedResource(kind.mapping), object.Name(), "metadata.resourceVersion",
                                "FieldValueInvalid", "Invalid value: 0: must be specified for an update");
    } else if (object.ResourceVersion() != at->second.ResourceVersion()) {
        return StaleResourceVersion(kind.mapping, object.Name());
    }
    return CommitLocked(kind, at, std::move(object), scope, dry_run);
}

StatusOr<Object> ObjectStore::Patch(const KindRules& kind, const ObjectKey& key, client::PatchType type,
                                    std::string_view data, WriteScope scope, bool dry_run) {
    if (type == client::PatchType::kApply)
        return BadRequestError(
            "the fake client does not implement server-side apply: use a merge or strategic merge patch, or test "
            "apply against a real API server (test/integration)");
    std::lock_guard lock(mutex_);
    CTRL_ASSIGN_OR_RETURN(Objects::iterator at, FindLocked(kind, key));
    Object patched = at->second.DeepCopy();
    switch (type) {
        case client::PatchType::kMergePatch:
            CTRL_RETURN_IF_ERROR(ApplyMergePatch(patched, data));
            break;
        case client::PatchType::kJsonPatch:
            CTRL_RETURN_IF_ERROR(ApplyJsonPatch(patched, data));
            break;
        case client::PatchType::kStrategicMergePatch: {
            const client::internal::PatchSchema* schema = client::internal::FindPatchSchema(kind.mapping.gvk);
            if (schema == nullptr)
                return BadRequestError(
                           "the body of the request was in an unknown format - accepted media types include: "
                           "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml")
                    .WithHttpCode(415)
                    .WithReason("UnsupportedMediaType");
            CTRL_RETURN_IF_ERROR(ApplyStrategicMergePatch(patched, data, *schema));
            break;
        }
        case client::PatchType::kApply:
            break;  // refused above
    }
    if (patched.ResourceVersion().empty())
        patched.SetResourceVersion(at->second.ResourceVersion());
    if (patched.ResourceVersion() != at->second.ResourceVersion())
        return StaleResourceVersion(kind.mapping, key.name);
    return CommitLocked(kind, at, std::move(patched), scope, dry_run);
}

StatusOr<Object> ObjectStore::CommitLocked(const KindRules& kind, Objects::iterator at, Object proposed,
                                           WriteScope scope, bool dry_run) {
    const Object& old = at->second;
    if (!proposed.Uid().empty() && proposed.Uid() != old.Uid())
        return PreconditionFailed(kind.mapping.gvk, old.Name(), "UID", proposed.Uid(), old.Uid());
    Object result;
    if (scope == WriteScope::kStatus) {
        result = old.DeepCopy();
        CopyField(proposed, result, {"status"});
    } else {
        result = std::move(proposed);
        if (kind.status_subresource)
            CopyField(old, result, {"status"});
    }
    if (result.DeletionTimestamp() != old.DeletionTimestamp())
        return ImmutableField(QualifiedKind(kind.mapping.gvk), old.Name(), "metadata.deletionTimestamp",
                              result.DeletionTimestamp().value_or("null"));
    result.SetGroupVersionKind(kind.mapping.gvk);
    result.SetName(old.Name());
    result.SetNamespace(old.Namespace());
    result.SetUid(old.Uid());
    result.SetResourceVersion(old.ResourceVersion());
    CopyString(old, result, "creationTimestamp");
    CopyField(old, result, {"metadata", "managedFields"});
    StatusOr<int64_t> grace = old.NestedInt({"metadata", "deletionGracePeriodSeconds"});
    if (grace.Ok()) {
        (void)result.SetNestedInt({"metadata", "deletionGracePeriodSeconds"}, *grace);
    } else {
        result.RemoveNestedField({"metadata", "deletionGracePeriodSeconds"});
    }
    if (old.HasNestedField({"metadata", "generation"})) {
        result.SetGeneration(old.Generation() + (kind.tracks_generation && SpecChanged(old, result) ? 1 : 0));
    } else {
        result.RemoveNestedField({"metadata", "generation"});
    }
    if (SameButVersion(old, result))
        return result;
    if (dry_run)
        return result;
    result.SetResourceVersion(NextVersionLocked());
    // Deleting, and nothing left to wait for: no finalizer, no grace period (a pod's kubelet).
    if (result.DeletionTimestamp() && result.Finalizers().empty() &&
        result.NestedInt({"metadata", "deletionGracePeriodSeconds"}).ValueOr(0) == 0) {
        objects_.erase(at);
        return result;
    }
    at->second = result.DeepCopy();
    return result;
}

Status ObjectStore::Delete(const KindRules& kind, const ObjectKey& key, const client::DeleteOptions& options) {
    std::lock_guard lock(mutex_);
    CTRL_ASSIGN_OR_RETURN(Objects::iterator at, FindLocked(kind, key));
    return DeleteLocked(kind, at, options);
}

Status ObjectStore::DeleteLocked(const KindRules& kind, Objects::iterator at, const client::DeleteOptions& options) {
    const Object& old = at->second;
    const client::Preconditions& pre = options.preconditions;
    if (pre.uid && *pre.uid != old.Uid())
        return PreconditionFailed(kind.mapping.gvk, old.Name(), "UID", *pre.uid, old.Uid());
    if (pre.resource_version && *pre.resource_version != old.ResourceVersion())
        return PreconditionFailed(kind.mapping.gvk, old.Name(), "ResourceVersion", *pre.resource_version,
                                  old.ResourceVersion());
    if (options.dry_run)
        return OkStatus();
    Object next = old.DeepCopy();
    // A pod bound to a node waits for its kubelet for the grace period (0 deletes at once).
    int64_t grace = 0;
    if (IsPod(kind.mapping.gvk) && !next.NestedString({"spec", "nodeName"}).ValueOr("").empty()) {
        grace = options.grace_period_seconds.value_or(
            next.NestedInt({"spec", "terminationGracePeriodSeconds"}).ValueOr(kDefaultPodGracePeriodSeconds));
    }
    if (options.propagation_policy == client::DeletionPropagation::kOrphan)
        next.AddFinalizer("orphan");
    if (options.propagation_policy == client::DeletionPropagation::kForeground)
        next.AddFinalizer("foregroundDeletion");
    if (grace <= 0 && next.Finalizers().empty()) {
        objects_.erase(at);
        return OkStatus();
    }
    StatusOr<int64_t> current_grace = next.NestedInt({"metadata", "deletionGracePeriodSeconds"});
    if (!next.DeletionTimestamp() || (current_grace.Ok() && grace < *current_grace)) {
        const auto when = std::chrono::system_clock::now() + std::chrono::seconds(grace);
        (void)next.SetNestedString({"metadata", "deletionTimestamp"}, api::FormatRfc3339(when));
        (void)next.SetNestedInt({"metadata", "deletionGracePeriodSeconds"}, grace);
    }
    if (SameButVersion(old, next))
        return OkStatus();
    next.SetResourceVersion(NextVersionLocked());
    at->second = std::move(next);
    return OkStatus();
}

Status ObjectStore::DeleteCollection(const KindRules& kind, const client::ListOptions& selection,
                                     const client::DeleteOptions& options) {
    std::lock_guard lock(mutex_);
    CTRL_ASSIGN_OR_RETURN(std::vector<Objects::const_iterator> selected, SelectLocked(kind, selection));
    std::vector<Key> keys;
    for (const Objects::const_iterator& it : selected)
        keys.push_back(it->first);
    for (const Key& key : keys) {
        auto it = objects_.find(key);
        if (it != objects_.end())
            CTRL_RETURN_IF_ERROR(DeleteLocked(kind, it, options));
    }
    return OkStatus();
}

}  // namespace ctrl::fake::internal
