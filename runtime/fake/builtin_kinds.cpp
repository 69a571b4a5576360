#include "ctrl/fake/builtin_kinds.hpp"

#include <map>
#include <string>
#include <vector>

namespace ctrl::fake {
namespace {

// Kinds whose resource name is not the guessed plural.
const std::map<GroupKind, std::string>& IrregularResources() {
    static const std::map<GroupKind, std::string> irregular{
        {{"", "Endpoints"}, "endpoints"},
        {{"", "ComponentStatus"}, "componentstatuses"},
    };
    return irregular;
}

}  // namespace

const std::vector<GroupVersionKind>& BuiltinKinds() {
    static const std::vector<GroupVersionKind> kinds{
        {"", "v1", "Pod"},
        {"", "v1", "Service"},
        {"", "v1", "Endpoints"},
        {"", "v1", "Node"},
        {"", "v1", "Namespace"},
        {"", "v1", "ConfigMap"},
        {"", "v1", "Secret"},
        {"", "v1", "ServiceAccount"},
        {"", "v1", "PersistentVolume"},
        {"", "v1", "PersistentVolumeClaim"},
        {"", "v1", "ReplicationController"},
        {"", "v1", "ResourceQuota"},
        {"", "v1", "LimitRange"},
        {"", "v1", "Event"},
        {"", "v1", "PodTemplate"},
        {"apps", "v1", "Deployment"},
        {"apps", "v1", "StatefulSet"},
        {"apps", "v1", "DaemonSet"},
        {"apps", "v1", "ReplicaSet"},
        {"apps", "v1", "ControllerRevision"},
        {"batch", "v1", "Job"},
        {"batch", "v1", "CronJob"},
        {"autoscaling", "v2", "HorizontalPodAutoscaler"},
        {"policy", "v1", "PodDisruptionBudget"},
        {"networking.k8s.io", "v1", "Ingress"},
        {"networking.k8s.io", "v1", "IngressClass"},
        {"networking.k8s.io", "v1", "NetworkPolicy"},
        {"discovery.k8s.io", "v1", "EndpointSlice"},
        {"rbac.authorization.k8s.io", "v1", "Role"},
        {"rbac.authorization.k8s.io", "v1", "RoleBinding"},
        {"rbac.authorization.k8s.io", "v1", "ClusterRole"},
        {"rbac.authorization.k8s.io", "v1", "ClusterRoleBinding"},
        {"storage.k8s.io", "v1", "StorageClass"},
        {"storage.k8s.io", "v1", "CSIDriver"},
        {"storage.k8s.io", "v1", "CSINode"},
        {"storage.k8s.io", "v1", "VolumeAttachment"},
        {"coordination.k8s.io", "v1", "Lease"},
        {"events.k8s.io", "v1", "Event"},
        {"scheduling.k8s.io", "v1", "PriorityClass"},
        {"node.k8s.io", "v1", "RuntimeClass"},
        {"certificates.k8s.io", "v1", "CertificateSigningRequest"},
        {"admissionregistration.k8s.io", "v1", "MutatingWebhookConfiguration"},
        {"admissionregistration.k8s.io", "v1", "ValidatingWebhookConfiguration"},
        {"admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicy"},
        {"admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicyBinding"},
        {"apiextensions.k8s.io", "v1", "CustomResourceDefinition"},
        {"apiregistration.k8s.io", "v1", "APIService"},
    };
    return kinds;
}

const std::set<GroupKind>& ClusterScopedBuiltinKinds() {
    static const std::set<GroupKind> kinds{
        {"", "Namespace"},
        {"", "Node"},
        {"", "PersistentVolume"},
        {"", "ComponentStatus"},
        {"apiextensions.k8s.io", "CustomResourceDefinition"},
        {"apiregistration.k8s.io", "APIService"},
        {"rbac.authorization.k8s.io", "ClusterRole"},
        {"rbac.authorization.k8s.io", "ClusterRoleBinding"},
        {"storage.k8s.io", "StorageClass"},
        {"storage.k8s.io", "CSIDriver"},
        {"storage.k8s.io", "CSINode"},
        {"storage.k8s.io", "VolumeAttachment"},
        {"scheduling.k8s.io", "PriorityClass"},
        {"node.k8s.io", "RuntimeClass"},
        {"networking.k8s.io", "IngressClass"},
        {"certificates.k8s.io", "CertificateSigningRequest"},
        {"admissionregistration.k8s.io", "MutatingWebhookConfiguration"},
        {"admissionregistration.k8s.io", "ValidatingWebhookConfiguration"},
        {"admissionregistration.k8s.io", "ValidatingAdmissionPolicy"},
        {"admissionregistration.k8s.io", "ValidatingAdmissionPolicyBinding"},
        {"flowcontrol.apiserver.k8s.io", "FlowSchema"},
        {"flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration"},
        {"authentication.k8s.io", "TokenReview"},
        {"authentication.k8s.io", "SelfSubjectReview"},
        {"authorization.k8s.io", "SubjectAccessReview"},
        {"authorization.k8s.io", "SelfSubjectAccessReview"},
        {"authorization.k8s.io", "SelfSubjectRulesReview"},
    };
    return kinds;
}

const std::set<GroupKind>& StatusSubresourceBuiltinKinds() {
    static const std::set<GroupKind> kinds{
        {"", "Pod"},
        {"", "Namespace"},
        {"", "Node"},
        {"", "Service"},
        {"", "PersistentVolume"},
        {"", "PersistentVolumeClaim"},
        {"", "ReplicationController"},
        {"", "ResourceQuota"},
        {"apps", "Deployment"},
        {"apps", "StatefulSet"},
        {"apps", "DaemonSet"},
        {"apps", "ReplicaSet"},
        {"batch", "Job"},
        {"batch", "CronJob"},
        {"autoscaling", "HorizontalPodAutoscaler"},
        {"policy", "PodDisruptionBudget"},
        {"networking.k8s.io", "Ingress"},
        {"apiextensions.k8s.io", "CustomResourceDefinition"},
        {"apiregistration.k8s.io", "APIService"},
        {"certificates.k8s.io", "CertificateSigningRequest"},
        {"storage.k8s.io", "VolumeAttachment"},
        {"flowcontrol.apiserver.k8s.io", "FlowSchema"},
        {"flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration"},
        {"admissionregistration.k8s.io", "ValidatingAdmissionPolicy"},
    };
    return kinds;
}

const std::set<GroupKind>& GenerationBuiltinKinds() {
    static const std::set<GroupKind> kinds{
        {"", "Pod"},
        {"", "ReplicationController"},
        {"apps", "Deployment"},
        {"apps", "StatefulSet"},
        {"apps", "DaemonSet"},
        {"apps", "ReplicaSet"},
        {"batch", "Job"},
        {"batch", "CronJob"},
        {"autoscaling", "HorizontalPodAutoscaler"},
        {"policy", "PodDisruptionBudget"},
        {"networking.k8s.io", "Ingress"},
        {"networking.k8s.io", "NetworkPolicy"},
        {"apiextensions.k8s.io", "CustomResourceDefinition"},
        {"admissionregistration.k8s.io", "ValidatingAdmissionPolicy"},
        {"admissionregistration.k8s.io", "ValidatingAdmissionPolicyBinding"},
    };
    return kinds;
}

std::shared_ptr<discovery::StaticRESTMapper> NewRESTMapperForScheme(const scheme::Scheme& scheme,
                                                                    const std::set<GroupKind>& cluster_scoped) {
    auto mapper = std::make_shared<discovery::StaticRESTMapper>();
    auto add = [&](const GroupVersionKind& gvk) {
        const GroupKind kind = gvk.ToGroupKind();
        auto irregular = IrregularResources().find(kind);
        std::string plural =
            irregular != IrregularResources().end() ? irregular->second : discovery::GuessPluralResource(kind.kind);
        const bool root = ClusterScopedBuiltinKinds().contains(kind) || cluster_scoped.contains(kind);
        mapper->Add(gvk, std::move(plural), root ? discovery::Scope::kRoot : discovery::Scope::kNamespace);
    };
    for (const GroupVersionKind& gvk : BuiltinKinds())
        add(gvk);
    for (const scheme::KnownType& type : scheme.AllKnownTypeInfo()) {
        if (!type.is_list)
            add(type.gvk);
    }
    return mapper;
}

}  // namespace ctrl::fake
