#include "ctrl/client/internal/strategic_merge_schema.hpp"

namespace ctrl::client::internal {
namespace {

// Built from the patchStrategy / patchMergeKey tags of k8s.io/api v0.37.2 (core/v1, apps/v1,
// batch/v1, coordination/v1) and k8s.io/apimachinery meta/v1, for every field a two-way diff can
// reach: lists without a merge strategy are replaced whole, so the tags inside their elements
// never apply (a pod's containerStatuses[].volumeMounts, a CRD's versions[].schema).

// metav1.ObjectMeta.
constexpr PatchField kObjectMetaFields[] = {
    {.name = "finalizers", .merge = true},
    {.name = "ownerReferences", .merge = true, .merge_key = "uid"},
};
constexpr PatchSchema kObjectMeta{kObjectMetaFields};

// Any type whose only tagged fields are in its metadata (ConfigMap, Lease, PodTemplateSpec's
// siblings ...).
constexpr PatchField kMetadataOnlyFields[] = {
    {.name = "metadata", .schema = &kObjectMeta},
};
constexpr PatchSchema kMetadataOnly{kMetadataOnlyFields};

// Status types whose only tagged field is conditions, merged by type.
constexpr PatchField kConditionsFields[] = {
    {.name = "conditions", .merge = true, .merge_key = "type"},
};
constexpr PatchSchema kConditions{kConditionsFields};

// core/v1 Container and EphemeralContainer (the same fields, inlined).
constexpr PatchField kContainerFields[] = {
    {.name = "env", .merge = true, .merge_key = "name"},
    {.name = "ports", .merge = true, .merge_key = "containerPort"},
    {.name = "volumeDevices", .merge = true, .merge_key = "devicePath"},
    {.name = "volumeMounts", .merge = true, .merge_key = "mountPath"},
};
constexpr PatchSchema kContainer{kContainerFields};

// core/v1 Volume: its ephemeral source holds a PersistentVolumeClaimTemplate with ObjectMeta.
constexpr PatchField kEphemeralVolumeSourceFields[] = {
    {.name = "volumeClaimTemplate", .schema = &kMetadataOnly},
};
constexpr PatchSchema kEphemeralVolumeSource{kEphemeralVolumeSourceFields};
constexpr PatchField kVolumeFields[] = {
    {.name = "ephemeral", .schema = &kEphemeralVolumeSource},
};
constexpr PatchSchema kVolume{kVolumeFields};

// core/v1 PodSpec.
constexpr PatchField kPodSpecFields[] = {
    {.name = "containers", .merge = true, .merge_key = "name", .schema = &kContainer},
    {.name = "ephemeralContainers", .merge = true, .merge_key = "name", .schema = &kContainer},
    {.name = "evictionResponders", .merge = true, .merge_key = "name"},
    {.name = "hostAliases", .merge = true, .merge_key = "ip"},
    {.name = "imagePullSecrets", .merge = true, .merge_key = "name"},
    {.name = "initContainers", .merge = true, .merge_key = "name", .schema = &kContainer},
    {.name = "resourceClaims", .merge = true, .retain_keys = true, .merge_key = "name"},
    {.name = "schedulingGates", .merge = true, .merge_key = "name"},
    {.name = "topologySpreadConstraints", .merge = true, .merge_key = "topologyKey"},
    {.name = "volumes", .merge = true, .retain_keys = true, .merge_key = "name", .schema = &kVolume},
};
constexpr PatchSchema kPodSpec{kPodSpecFields};

// core/v1 NodeAllocatableResourceClaimStatus.
constexpr PatchField kNodeAllocatableClaimStatusFields[] = {
    {.name = "mapping", .merge = true, .merge_key = "name"},
    {.name = "overhead", .merge = true, .merge_key = "name"},
};
constexpr PatchSchema kNodeAllocatableClaimStatus{kNodeAllocatableClaimStatusFields};

// core/v1 PodStatus.
constexpr PatchField kPodStatusFields[] = {
    {.name = "conditions", .merge = true, .merge_key = "type"},
    {.name = "hostIPs", .merge = true, .merge_key = "ip"},
    {.name = "nodeAllocatableResourceClaimStatuses",
     .merge = true,
     .merge_key = "resourceClaimName",
     .schema = &kNodeAllocatableClaimStatus},
    {.name = "podIPs", .merge = true, .merge_key = "ip"},
    {.name = "resourceClaimStatuses", .merge = true, .retain_keys = true, .merge_key = "name"},
};
constexpr PatchSchema kPodStatus{kPodStatusFields};

constexpr PatchField kPodFields[] = {
    {.name = "metadata", .schema = &kObjectMeta},
    {.name = "spec", .schema = &kPodSpec},
    {.name = "status", .schema = &kPodStatus},
};
constexpr PatchSchema kPod{kPodFields};

// core/v1 PodTemplateSpec.
constexpr PatchField kPodTemplateSpecFields[] = {
    {.name = "metadata", .schema = &kObjectMeta},
    {.name = "spec", .schema = &kPodSpec},
};
constexpr PatchSchema kPodTemplateSpec{kPodTemplateSpecFields};

// A kind with metadata, a spec holding a pod template, and conditions in its status (ReplicaSet,
// StatefulSet, DaemonSet).
constexpr PatchField kTemplateSpecFields[] = {
    {.name = "template", .schema = &kPodTemplateSpec},
};
constexpr PatchSchema kTemplateSpec{kTemplateSpecFields};
constexpr PatchField kWorkloadFields[] = {
    {.name = "metadata", .schema = &kObjectMeta},
    {.name = "spec", .schema = &kTemplateSpec},
    {.name = "status", .schema = &kConditions},
};
constexpr PatchSchema kWorkload{kWorkloadFields};

// apps/v1 Deployment: its strategy is a union that keeps only the fields the patch names.
constexpr PatchField kDeploymentSpecFields[] = {
    {.name = "strategy", .retain_keys = true},
    {.name = "template", .schema = &kPodTemplateSpec},
};
constexpr PatchSchema kDeploymentSpec{kDeploymentSpecFields};
constexpr PatchField kDeploymentFields[] = {
    {.name = "metadata", .schema = &kObjectMeta},
    {.name = "spec", .schema = &kDeploymentSpec},
    {.name = "status", .schema = &kConditions},
};
constexpr PatchSchema kDeployment{kDeploymentFields};

// batch/v1 JobSpec (and JobTemplateSpec, CronJob).
constexpr PatchField kJobSchedulingFields[] = {
    {.name = "resourceClaims", .merge = true, .merge_key = "name"},
};
constexpr PatchSchema kJobScheduling{kJobSchedulingFields};
constexpr PatchField kJobSpecFields[] = {
    {.name = "scheduling", .schema = &kJobScheduling},
    {.name = "template", .schema = &kPodTemplateSpec},
};
constexpr PatchSchema kJobSpec{kJobSpecFields};
constexpr PatchField kJobFields[] = {
    {.name = "metadata", .schema = &kObjectMeta},
    {.name = "spec", .schema = &kJobSpec},
    {.name = "status", .schema = &kConditions},
};
constexpr PatchSchema kJob{kJobFields};
constexpr PatchField kJobTemplateSpecFields[] = {
    {.name = "metadata", .schema = &kObjectMeta},
    {.name = "spec", .schema = &kJobSpec},
};
constexpr PatchSchema kJobTemplateSpec{kJobTemplateSpecFields};
constexpr PatchField kCronJobSpecFields[] = {
    {.name = "jobTemplate", .schema = &kJobTemplateSpec},
};
constexpr PatchSchema kCronJobSpec{kCronJobSpecFields};
constexpr PatchField kCronJobFields[] = {
    {.name = "metadata", .schema = &kObjectMeta},
    {.name = "spec", .schema = &kCronJobSpec},
};
constexpr PatchSchema kCronJob{kCronJobFields};

// core/v1 Namespace.
constexpr PatchField kNamespaceFields[] = {
    {.name = "metadata", .schema = &kObjectMeta},
    {.name = "status", .schema = &kConditions},
};
constexpr PatchSchema kNamespace{kNamespaceFields};

// core/v1 PersistentVolumeClaim.
constexpr PatchField kVolumeHealthStatusFields[] = {
    {.name = "healthConditions", .merge = true, .merge_key = "status"},
};
constexpr PatchSchema kVolumeHealthStatus{kVolumeHealthStatusFields};
constexpr PatchField kClaimStatusFields[] = {
    {.name = "conditions", .merge = true, .merge_key = "type"},
    {.name = "healthStatus", .schema = &kVolumeHealthStatus},
};
constexpr PatchSchema kClaimStatus{kClaimStatusFields};
constexpr PatchField kClaimFields[] = {
    {.name = "metadata", .schema = &kObjectMeta},
    {.name = "status", .schema = &kClaimStatus},
};
constexpr PatchSchema kClaim{kClaimFields};

// core/v1 ServiceAccount.
constexpr PatchField kServiceAccountFields[] = {
    {.name = "metadata", .schema = &kObjectMeta},
    {.name = "secrets", .merge = true, .merge_key = "name"},
};
constexpr PatchSchema kServiceAccount{kServiceAccountFields};

// core/v1 Service.
constexpr PatchField kServiceSpecFields[] = {
    {.name = "ports", .merge = true, .merge_key = "port"},
};
constexpr PatchSchema kServiceSpec{kServiceSpecFields};
constexpr PatchField kServiceFields[] = {
    {.name = "metadata", .schema = &kObjectMeta},
    {.name = "spec", .schema = &kServiceSpec},
    {.name = "status", .schema = &kConditions},
};
constexpr PatchSchema kService{kServiceFields};

// core/v1 Node.
constexpr PatchField kNodeSpecFields[] = {
    {.name = "podCIDRs", .merge = true},
};
constexpr PatchSchema kNodeSpec{kNodeSpecFields};
constexpr PatchField kNodeStatusFields[] = {
    {.name = "addresses", .merge = true, .merge_key = "type"},
    {.name = "conditions", .merge = true, .merge_key = "type"},
};
constexpr PatchSchema kNodeStatus{kNodeStatusFields};
constexpr PatchField kNodeFields[] = {
    {.name = "metadata", .schema = &kObjectMeta},
    {.name = "spec", .schema = &kNodeSpec},
    {.name = "status", .schema = &kNodeStatus},
};
constexpr PatchSchema kNode{kNodeFields};

constexpr KindPatchSchema kKnownKinds[] = {
    {"", "v1", "ConfigMap", &kMetadataOnly},
    {"", "v1", "Event", &kMetadataOnly},
    {"", "v1", "Namespace", &kNamespace},
    {"", "v1", "Node", &kNode},
    {"", "v1", "PersistentVolumeClaim", &kClaim},
    {"", "v1", "Pod", &kPod},
    {"", "v1", "Secret", &kMetadataOnly},
    {"", "v1", "Service", &kService},
    {"", "v1", "ServiceAccount", &kServiceAccount},
    {"apiextensions.k8s.io", "v1", "CustomResourceDefinition", &kMetadataOnly},
    {"apps", "v1", "DaemonSet", &kWorkload},
    {"apps", "v1", "Deployment", &kDeployment},
    {"apps", "v1", "ReplicaSet", &kWorkload},
    {"apps", "v1", "StatefulSet", &kWorkload},
    {"batch", "v1", "CronJob", &kCronJob},
    {"batch", "v1", "Job", &kJob},
    {"coordination.k8s.io", "v1", "Lease", &kMetadataOnly},
};

}  // namespace

const PatchField* FindPatchField(const PatchSchema* schema, std::string_view name) {
    if (schema == nullptr)
        return nullptr;
    for (const PatchField& field : schema->fields) {
        if (field.name == name)
            return &field;
    }
    return nullptr;
}

std::span<const KindPatchSchema> KnownPatchSchemas() {
    return kKnownKinds;
}

const PatchSchema* FindPatchSchema(const GroupVersionKind& gvk) {
    for (const KindPatchSchema& known : kKnownKinds) {
        if (known.group == gvk.group && known.version == gvk.version && known.kind == gvk.kind)
            return known.schema;
    }
    return nullptr;
}

}  // namespace ctrl::client::internal
