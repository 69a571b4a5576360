#include "runtime/fake/builtin_kinds.hpp"

#include <map>
#include <string>

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
        {"vpcresources.k8s.aws", "CNINode"},
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
    for (const scheme::KnownType& type : scheme.AllKnownTypeInfo()) {
        if (type.is_list)
            continue;
        const GroupKind kind = type.gvk.ToGroupKind();
        auto irregular = IrregularResources().find(kind);
        std::string plural =
            irregular != IrregularResources().end() ? irregular->second : discovery::GuessPluralResource(kind.kind);
        const bool root = ClusterScopedBuiltinKinds().contains(kind) || cluster_scoped.contains(kind);
        mapper->Add(type.gvk, std::move(plural), root ? discovery::Scope::kRoot : discovery::Scope::kNamespace);
    }
    return mapper;
}

}  // namespace ctrl::fake
