#pragma once

#include <span>
#include <string_view>

#include "ctrl/core/gvk.hpp"

namespace ctrl::client::internal {

struct PatchField;

// What a strategic merge patch needs to know of one Go API type: its fields that carry patch
// metadata (patchStrategy / patchMergeKey tags) or lead to fields that do. A field not listed is
// patched the plain way: an object member by member, a list whole. nullptr means a type with no
// such fields (a map of strings, ...).
struct PatchSchema {
    std::span<const PatchField> fields;
};

// One field of a PatchSchema.
struct PatchField {
    std::string_view name = {};
    // patchStrategy "merge": the list is merged by merge_key (a list of objects) or by value (a
    // list of primitives when merge_key is empty) instead of being replaced.
    bool merge = false;
    // patchStrategy "retainKeys": the patch of the object (or of each list element) names the
    // fields to keep in "$retainKeys", so the server clears the others (a union such as a
    // volume's source).
    bool retain_keys = false;
    std::string_view merge_key = {};
    // The type of the field's value, or of each element of a list; nullptr when plain.
    const PatchSchema* schema = nullptr;
};

// The field named name of schema, or nullptr (also when schema is nullptr).
const PatchField* FindPatchField(const PatchSchema* schema, std::string_view name);

// A kind the runtime can compute strategic merge patches for, and its type's schema.
struct KindPatchSchema {
    std::string_view group;
    std::string_view version;
    std::string_view kind;
    const PatchSchema* schema;
};

// Every kind with a known schema: core/v1 Pod, Namespace, ServiceAccount, ConfigMap, Secret,
// Event, Service, Node, PersistentVolumeClaim; coordination.k8s.io/v1 Lease;
// apiextensions.k8s.io/v1 CustomResourceDefinition; apps/v1 Deployment, StatefulSet, DaemonSet,
// ReplicaSet; batch/v1 Job, CronJob. The tags are those of k8s.io/api v0.37.2.
std::span<const KindPatchSchema> KnownPatchSchemas();

// The schema of gvk, or nullptr when the runtime does not know its patch metadata (custom
// resources, kinds not in KnownPatchSchemas).
const PatchSchema* FindPatchSchema(const GroupVersionKind& gvk);

}  // namespace ctrl::client::internal
