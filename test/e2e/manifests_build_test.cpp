// Issue 15, acceptance 4 (first half): `kubectl kustomize` builds manifests/ and every overlay,
// into exactly the objects the operator's contract names: least-privilege RBAC without wildcards,
// a hardened Deployment, the secure metrics Service, the optional Prometheus and Grafana pieces
// (the admission webhooks' objects: manifests_webhook_test.cpp).
// No server is needed here; manifests_apply_test.cpp applies them to the real control plane.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "test/e2e/manifests_objects.hpp"

namespace ctrl::testing {
namespace {

using ::testing::ElementsAreArray;
using ::testing::IsSupersetOf;

// roleRef kind/name and the one subject's kind namespace/name of a (Cluster)RoleBinding.
std::string BindingOf(const Object& binding) {
    const std::string role =
        StringAt(binding, {"roleRef", "kind"}, "?") + "/" + StringAt(binding, {"roleRef", "name"}, "?");
    std::vector<Object> subjects = ObjectsAt(binding, {"subjects"});
    std::string bound;
    for (const Object& subject : subjects) {
        bound += " " + StringAt(subject, {"kind"}, "?") + "/" + StringAt(subject, {"namespace"}) + "/" +
                 StringAt(subject, {"name"}, "?");
    }
    return role + " ->" + bound;
}

// No CustomResourceDefinition: on EKS AWS owns SecurityGroupPolicy and CNINode (issue 28).
TEST(ManifestsBuildTest, BaseBuildsExactlyTheOperatorsObjects) {
    const std::vector<Object> objects = BuildOrFail("manifests");
    EXPECT_THAT(ObjectIds(objects), ElementsAreArray(OperatorObjectIds()));
}

TEST(ManifestsBuildTest, BareOverlayIsTheBasePlusTheProjectsCrds) {
    const std::vector<Object> objects = BuildOrFail("manifests/overlays/bare");
    std::vector<std::string> expected = OperatorObjectIds();
    expected.push_back("CustomResourceDefinition/cninodes.vpcresources.k8s.aws");
    expected.push_back("CustomResourceDefinition/securitygrouppolicies.vpcresources.k8s.aws");
    std::sort(expected.begin(), expected.end());
    EXPECT_THAT(ObjectIds(objects), ElementsAreArray(expected));
    const Object* crd = FindObject(objects, "CustomResourceDefinition", "securitygrouppolicies.vpcresources.k8s.aws");
    ASSERT_NE(crd, nullptr);
    std::vector<Object> versions = ObjectsAt(*crd, {"spec", "versions"});
    ASSERT_EQ(versions.size(), 1u);
    EXPECT_TRUE(versions[0].HasNestedField({"subresources", "status"})) << "the project's CRD, with status";
}

TEST(ManifestsBuildTest, RbacGrantsExactlyTheContract) {
    const std::vector<Object> objects = BuildOrFail("manifests");
    const Object* operator_role = FindObject(objects, "ClusterRole", "ctrl-operator");
    ASSERT_NE(operator_role, nullptr);
    EXPECT_EQ(RoleGrants(*operator_role), (std::set<std::string>{
                                              "/pods:list",
                                              "/pods:watch",
                                              "/pods:patch",
                                              "/serviceaccounts:list",
                                              "/serviceaccounts:watch",
                                              "/events:create",
                                              "/events:patch",
                                              "vpcresources.k8s.aws/securitygrouppolicies:list",
                                              "vpcresources.k8s.aws/securitygrouppolicies:watch",
                                              "vpcresources.k8s.aws/securitygrouppolicies/status:patch",
                                          }));
    const Object* leader_role = FindObject(objects, "Role", "ctrl-operator-leader-election");
    ASSERT_NE(leader_role, nullptr);
    EXPECT_EQ(leader_role->Namespace(), "ctrl-system");
    EXPECT_EQ(RoleGrants(*leader_role),
              (std::set<std::string>{"coordination.k8s.io/leases:get", "coordination.k8s.io/leases:create",
                                     "coordination.k8s.io/leases:update"}));
    const Object* reader = FindObject(objects, "ClusterRole", "metrics-reader");
    ASSERT_NE(reader, nullptr);
    EXPECT_EQ(RoleGrants(*reader), (std::set<std::string>{"/metrics:get"}));
    // Self-managed webhook certificates: one Secret of its namespace (create cannot name it), and
    // the CA bundle of its own two configurations.
    const Object* certs_role = FindObject(objects, "Role", "ctrl-operator-webhook-certs");
    ASSERT_NE(certs_role, nullptr);
    EXPECT_EQ(certs_role->Namespace(), "ctrl-system");
    EXPECT_EQ(RoleGrants(*certs_role), (std::set<std::string>{
                                           "/secrets/ctrl-operator-webhook-certs:list",
                                           "/secrets/ctrl-operator-webhook-certs:watch",
                                           "/secrets/ctrl-operator-webhook-certs:update",
                                           "/secrets:create",
                                       }));
    const Object* injection_role = FindObject(objects, "ClusterRole", "ctrl-operator-webhook-ca-injection");
    ASSERT_NE(injection_role, nullptr);
    std::set<std::string> injection;
    for (const std::string configuration : {"validatingwebhookconfigurations/ctrl-operator-sgp-rules",
                                            "mutatingwebhookconfigurations/ctrl-operator-sgp-defaults"}) {
        for (const char* verb : {"get", "list", "watch", "update"})
            injection.insert("admissionregistration.k8s.io/" + configuration + ":" + verb);
    }
    EXPECT_EQ(RoleGrants(*injection_role), injection);

    const std::string operator_sa = " ServiceAccount/ctrl-system/ctrl-operator";
    std::set<std::string> bindings;
    for (const Object& object : objects) {
        if (object.Kind() == "ClusterRoleBinding" || object.Kind() == "RoleBinding")
            bindings.insert(std::string(object.Kind()) + " " + BindingOf(object));
    }
    EXPECT_EQ(bindings, (std::set<std::string>{
                            "ClusterRoleBinding ClusterRole/ctrl-operator ->" + operator_sa,
                            "ClusterRoleBinding ClusterRole/system:auth-delegator ->" + operator_sa,
                            "RoleBinding Role/ctrl-operator-leader-election ->" + operator_sa,
                            "RoleBinding Role/ctrl-operator-webhook-certs ->" + operator_sa,
                            "ClusterRoleBinding ClusterRole/ctrl-operator-webhook-ca-injection ->" + operator_sa,
                        }));
}

TEST(ManifestsBuildTest, NoRoleInAnyBuildHasAWildcard) {
    for (const std::string& dir : KustomizationDirs()) {
        if (dir.find("components/") != std::string::npos)
            continue;  // built through the overlays that use them
        for (const Object& object : BuildOrFail(dir)) {
            if (object.Kind() != "ClusterRole" && object.Kind() != "Role")
                continue;
            for (const std::string& grant : RoleGrants(object))
                EXPECT_EQ(grant.find('*'), std::string::npos) << dir << ": " << object.Name() << " grants " << grant;
        }
    }
}

TEST(ManifestsBuildTest, DeploymentRunsTwoHardenedReplicasWithProbes) {
    const std::vector<Object> objects = BuildOrFail("manifests");
    const Object* deployment = FindObject(objects, "Deployment", "ctrl-operator");
    ASSERT_NE(deployment, nullptr);
    EXPECT_EQ(IntAt(*deployment, {"spec", "replicas"}), 2);
    EXPECT_EQ(StringAt(*deployment, {"spec", "template", "spec", "serviceAccountName"}), "ctrl-operator");
    EXPECT_EQ(StringMapAt(*deployment, {"spec", "template", "metadata", "labels"}),
              (std::map<std::string, std::string>{{"app.kubernetes.io/name", "ctrl-operator"}}));
    EXPECT_TRUE(BoolAt(*deployment, {"spec", "template", "spec", "securityContext", "runAsNonRoot"}, false));
    EXPECT_EQ(StringAt(*deployment, {"spec", "template", "spec", "securityContext", "seccompProfile", "type"}),
              "RuntimeDefault");
    std::vector<Object> containers = ObjectsAt(*deployment, {"spec", "template", "spec", "containers"});
    ASSERT_EQ(containers.size(), 1u);
    const Object& manager = containers[0];
    EXPECT_EQ(StringAt(manager, {"image"}), CTRL_OPERATOR_IMAGE_TAG) << "the tag hack/image.sh builds";
    EXPECT_THAT(StringsAt(manager, {"args"}),
                IsSupersetOf({"--leader-elect", "--metrics-bind-address=:8443", "--metrics-secure",
                              "--health-probe-bind-address=:8081", "--webhook-port=9443"}));
    EXPECT_EQ(StringAt(manager, {"livenessProbe", "httpGet", "path"}), "/healthz");
    EXPECT_EQ(StringAt(manager, {"readinessProbe", "httpGet", "path"}), "/readyz");
    // Both probes name the port "probes", which must be 8081.
    std::map<std::string, int64_t> ports;
    for (const Object& port : ObjectsAt(manager, {"ports"}))
        ports[StringAt(port, {"name"})] = IntAt(port, {"containerPort"});
    EXPECT_EQ(ports, (std::map<std::string, int64_t>{{"https", 8443}, {"probes", 8081}, {"webhook", 9443}}));
    EXPECT_EQ(StringAt(manager, {"livenessProbe", "httpGet", "port"}), "probes");
    EXPECT_EQ(StringAt(manager, {"readinessProbe", "httpGet", "port"}), "probes");
    EXPECT_FALSE(BoolAt(manager, {"securityContext", "allowPrivilegeEscalation"}, true));
    EXPECT_TRUE(BoolAt(manager, {"securityContext", "readOnlyRootFilesystem"}, false));
    EXPECT_EQ(StringsAt(manager, {"securityContext", "capabilities", "drop"}), std::vector<std::string>{"ALL"});
    for (const char* kind : {"requests", "limits"}) {
        EXPECT_TRUE(manager.HasNestedField({"resources", kind, "cpu"})) << kind;
        EXPECT_TRUE(manager.HasNestedField({"resources", kind, "memory"})) << kind;
    }
}

TEST(ManifestsBuildTest, MetricsServiceReachesTheSecurePort) {
    const std::vector<Object> objects = BuildOrFail("manifests");
    const Object* service = FindObject(objects, "Service", "ctrl-operator-metrics");
    ASSERT_NE(service, nullptr);
    EXPECT_EQ(StringMapAt(*service, {"spec", "selector"}),
              (std::map<std::string, std::string>{{"app.kubernetes.io/name", "ctrl-operator"}}));
    std::vector<Object> ports = ObjectsAt(*service, {"spec", "ports"});
    ASSERT_EQ(ports.size(), 1u);
    EXPECT_EQ(StringAt(ports[0], {"name"}), "https");
    EXPECT_EQ(IntAt(ports[0], {"port"}), 8443);
    EXPECT_EQ(StringAt(ports[0], {"targetPort"}), "https");
}

TEST(ManifestsBuildTest, EveryKustomizationBuildsAndEveryComponentIsUsed) {
    const std::vector<std::string> dirs = KustomizationDirs();
    EXPECT_THAT(dirs,
                IsSupersetOf({"manifests", "manifests/crd", "manifests/rbac", "manifests/manager", "manifests/metrics",
                              "manifests/prometheus", "manifests/grafana", "manifests/samples",
                              "manifests/components/servicemonitor", "manifests/overlays/prometheus-operator",
                              "manifests/components/crds", "manifests/overlays/bare", "manifests/webhook",
                              "manifests/components/cert-manager", "manifests/overlays/cert-manager"}));
    std::set<std::string> components;
    std::set<std::string> used_components;
    for (const std::string& dir : dirs) {
        StatusOr<std::string> text = ReadRepoFile(dir + "/kustomization.yaml");
        ASSERT_TRUE(text.Ok()) << text.GetStatus();
        StatusOr<std::vector<Object>> parsed = ParseYamlDocuments(*text);
        ASSERT_TRUE(parsed.Ok() && parsed->size() == 1) << dir << ": " << parsed.GetStatus();
        const Object& kustomization = parsed->front();
        for (const std::string& used : StringsAt(kustomization, {"components"})) {
            used_components.insert(std::filesystem::path(dir + "/" + used).lexically_normal().string());
        }
        if (kustomization.Kind() == "Component") {
            components.insert(dir);
            continue;  // a component builds only inside a kustomization
        }
        StatusOr<std::vector<Object>> built = KustomizeBuild(RepoPath(dir));
        ASSERT_TRUE(built.Ok()) << dir << ": " << built.GetStatus();
        EXPECT_FALSE(built->empty()) << dir;
    }
    for (const std::string& component : components)
        EXPECT_TRUE(used_components.contains(component)) << component << " is used by no overlay";
}

TEST(ManifestsBuildTest, PrometheusOperatorOverlayIsTheBasePlusAServiceMonitor) {
    const std::vector<Object> objects = BuildOrFail("manifests/overlays/prometheus-operator");
    std::vector<std::string> expected = OperatorObjectIds();
    expected.push_back("ClusterRoleBinding/ctrl-operator-metrics-reader-prometheus-k8s");
    expected.push_back("ServiceMonitor/ctrl-system/ctrl-operator");
    std::sort(expected.begin(), expected.end());
    EXPECT_THAT(ObjectIds(objects), ElementsAreArray(expected));

    const Object* monitor = FindObject(objects, "ServiceMonitor", "ctrl-operator");
    ASSERT_NE(monitor, nullptr);
    EXPECT_EQ(monitor->ApiVersion(), "monitoring.coreos.com/v1");
    const Object* service = FindObject(objects, "Service", "ctrl-operator-metrics");
    ASSERT_NE(service, nullptr);
    const std::map<std::string, std::string> service_labels = service->Labels();
    for (const auto& [key, value] : StringMapAt(*monitor, {"spec", "selector", "matchLabels"}))
        EXPECT_EQ(service_labels.contains(key) ? service_labels.at(key) : "", value) << key;
    std::vector<Object> endpoints = ObjectsAt(*monitor, {"spec", "endpoints"});
    ASSERT_EQ(endpoints.size(), 1u);
    EXPECT_EQ(StringAt(endpoints[0], {"port"}), "https");
    EXPECT_EQ(StringAt(endpoints[0], {"scheme"}), "https");
    EXPECT_TRUE(endpoints[0].HasNestedField({"bearerTokenFile"}) || endpoints[0].HasNestedField({"authorization"}));
    const Object* binding = FindObject(objects, "ClusterRoleBinding", "ctrl-operator-metrics-reader-prometheus-k8s");
    ASSERT_NE(binding, nullptr);
    EXPECT_EQ(BindingOf(*binding), "ClusterRole/metrics-reader -> ServiceAccount/monitoring/prometheus-k8s");
}

TEST(ManifestsBuildTest, PlainPrometheusKustomizationBindsItsServiceAccountToMetricsReader) {
    const std::vector<Object> objects = BuildOrFail("manifests/prometheus");
    EXPECT_THAT(ObjectIds(objects), ElementsAreArray({"ClusterRoleBinding/prometheus-ctrl-operator-metrics-reader",
                                                      "ConfigMap/monitoring/prometheus-config", "Namespace/monitoring",
                                                      "Role/ctrl-system/prometheus-ctrl-operator-discovery",
                                                      "RoleBinding/ctrl-system/prometheus-ctrl-operator-discovery",
                                                      "ServiceAccount/monitoring/prometheus"}));
    const Object* binding = FindObject(objects, "ClusterRoleBinding", "prometheus-ctrl-operator-metrics-reader");
    ASSERT_NE(binding, nullptr);
    EXPECT_EQ(BindingOf(*binding), "ClusterRole/metrics-reader -> ServiceAccount/monitoring/prometheus");
    const Object* config = FindObject(objects, "ConfigMap", "prometheus-config");
    ASSERT_NE(config, nullptr);
    EXPECT_EQ(StringAt(*config, {"data", "prometheus.yml"}),
              ReadRepoFile("manifests/prometheus/prometheus.yml").ValueOr("?"));
}

TEST(ManifestsBuildTest, SamplesHoldPoliciesAccountsAndPods) {
    const std::vector<Object> objects = BuildOrFail("manifests/samples");
    EXPECT_THAT(
        ObjectIds(objects),
        IsSupersetOf({"SecurityGroupPolicy/sgp-demo/web-frontend", "SecurityGroupPolicy/sgp-demo/payments-db-access",
                      "SecurityGroupPolicy/sgp-demo/monitoring-agents", "SecurityGroupPolicy/sgp-demo/no-selector",
                      "ServiceAccount/sgp-demo/payments", "ServiceAccount/sgp-demo/reporting", "Pod/sgp-demo/web-1",
                      "Namespace/sgp-demo"}));
    const Object* invalid = FindObject(objects, "SecurityGroupPolicy", "no-selector");
    ASSERT_NE(invalid, nullptr);
    EXPECT_FALSE(invalid->HasNestedField({"spec", "podSelector"}));
    EXPECT_FALSE(invalid->HasNestedField({"spec", "serviceAccountSelector"}));
    const Object* labelled = FindObject(objects, "ServiceAccount", "payments");
    ASSERT_NE(labelled, nullptr);
    EXPECT_EQ(labelled->Label("role").value_or(""), "payments");
}

}  // namespace
}  // namespace ctrl::testing
