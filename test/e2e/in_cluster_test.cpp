// Issue 15, acceptance 3: the operator in-cluster — KUBERNETES_SERVICE_HOST/PORT and the token,
// ca.crt and namespace files at /var/run/secrets/kubernetes.io/serviceaccount (a private mount
// namespace: `unshare --mount`, nothing on the machine changes), no --kubeconfig, no $KUBECONFIG, an
// empty $HOME — works with only the RBAC of manifests/ (leader election in the namespace of the
// file, statuses, Events, secure metrics); and with one rule taken out (patch on pods) the failure
// is a Forbidden in its log naming the verb and the resource.

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "test/e2e/operator_fixture.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::e2e {
namespace {

using namespace std::chrono_literals;
using testing::Eventually;

constexpr char kPolicies[] = R"(
apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata:
  name: web
spec:
  podSelector:
    matchLabels:
      app: web
  securityGroups:
    groupIds: [sg-web-1, sg-web-2]
---
apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata:
  name: payments
spec:
  serviceAccountSelector:
    matchLabels:
      role: payments
  securityGroups:
    groupIds: [sg-pay]
---
apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata:
  name: no-groups
spec:
  podSelector: {}
)";

// The log lines containing every part, joined ("" for none).
std::string LinesWith(const OperatorProcess& process, const std::vector<std::string>& parts) {
    std::istringstream in(process.Log());
    std::string found;
    for (std::string line; std::getline(in, line);) {
        bool all = true;
        for (const std::string& part : parts)
            all = all && line.find(part) != std::string::npos;
        if (all)
            found += line + "\n";
    }
    return found;
}

// The name of a ClusterRole granting get on the non-resource URL /metrics ("" for none).
std::string MetricsReaderRole() {
    StatusOr<std::vector<Object>> roles = KubectlItems({"get", "clusterroles"});
    if (!roles.Ok())
        return "";
    for (const Object& role : *roles) {
        if (role.Name().rfind("system:", 0) == 0 || role.Name() == "cluster-admin")
            continue;
        StatusOr<std::vector<Object>> rules = role.NestedSlice({"rules"});
        if (!rules.Ok())
            continue;
        for (const Object& rule : *rules) {
            StatusOr<std::vector<std::string>> urls = rule.NestedStringSlice({"nonResourceURLs"});
            if (urls.Ok() && std::find(urls->begin(), urls->end(), "/metrics") != urls->end())
                return std::string(role.Name());
        }
    }
    return "";
}

using InClusterTest = OperatorTest;

TEST_F(InClusterTest, WorksWithOnlyTheManifestsRbac) {
    const std::string ns = MakeNamespace();
    OperatorProcess* op =
        StartOperator({.name = "in-cluster", .watch_namespaces = {ns}, .args = {"--leader-elect"}, .in_cluster = true});
    ASSERT_NE(op, nullptr);
    ASSERT_TRUE(WaitReady(*op));
    EXPECT_EQ(op->LogLinesWith({"Starting the manager", "in-cluster service account"}), 1)
        << "it says it runs with the in-cluster config";

    Apply(ns, ServiceAccountYaml("payments", "role=payments") + kPolicies + PodYaml("web-1", "app=web") +
                  PodYaml("pay-1", "app=api", "payments") + PodYaml("db-1", "app=db"));
    EXPECT_TRUE(AnnotationsConverge({ns}));

    // Leader election in the namespace of the service-account file.
    StatusOr<Object> lease =
        KubectlJson({"get", "lease", "-n", std::string(kOperatorNamespace), "ctrl-operator.ctrl.example.com"});
    ASSERT_TRUE(lease.Ok()) << lease.GetStatus();
    StatusOr<std::string> holder = lease->NestedString({"spec", "holderIdentity"});
    ASSERT_TRUE(holder.Ok());
    EXPECT_GE(op->LogLinesWith({"Starting manager", *holder}), 1) << "holder " << *holder;

    // Statuses (securitygrouppolicies/status patch) and Events (events create, patch).
    ExpectStatusesAndEvents({ns});

    // /metrics is secure by default in-cluster: no token, no metrics; a token of a ServiceAccount
    // bound to the manifests' metrics reader role reads them.
    EXPECT_EQ(op->Metrics().status, 401);
    const std::string reader_role = MetricsReaderRole();
    ASSERT_NE(reader_role, "") << "no ClusterRole grants get on /metrics";
    ASSERT_TRUE(KubectlApply(ServiceAccountYaml("e2e-metrics-reader", ""), std::string(kOperatorNamespace)).Ok());
    ASSERT_TRUE(KubectlOut({"create", "clusterrolebinding", "e2e-metrics-reader", "--clusterrole=" + reader_role,
                            "--serviceaccount=" + std::string(kOperatorNamespace) + ":e2e-metrics-reader"})
                    .Ok());
    StatusOr<std::string> reader = ServiceAccountToken("e2e-metrics-reader");
    ASSERT_TRUE(reader.Ok()) << reader.GetStatus();
    testing::CurlResult scraped;
    EXPECT_TRUE(Eventually(
        [&] {
            scraped = op->Metrics(*reader);
            return scraped.status == 200 && MetricValue(scraped.body, "sgp_kind_served") == 1.0;
        },
        testing::kTestWait, 200ms))
        << scraped.status << " " << scraped.body.substr(0, 500);

    // Nothing it did was refused.
    EXPECT_EQ(LinesWith(*op, {"forbidden"}) + LinesWith(*op, {"Forbidden"}), "");
    EXPECT_TRUE(op->Running());
}

TEST_F(InClusterTest, ADeniedVerbIsAClearForbiddenInTheLog) {
    const std::string account = "ctrl-operator-without-pod-patch";
    const Status limited = CreateServiceAccountWithout(account, "pods", "patch");
    ASSERT_TRUE(limited.Ok()) << limited;
    const std::string ns = MakeNamespace();
    OperatorProcess* op = StartOperator(
        {.name = "no-pod-patch", .watch_namespaces = {ns}, .service_account = account, .in_cluster = true});
    ASSERT_NE(op, nullptr);
    Apply(ns, std::string(kPolicies) + PodYaml("web-1", "app=web"));

    std::string lines;
    EXPECT_TRUE(Eventually(
        [&] {
            lines = LinesWith(*op, {"cannot patch resource", "pods"});
            return !lines.empty();
        },
        testing::kTestWait, 200ms))
        << "no log line says the patch of pods is forbidden";
    EXPECT_NE(lines.find("orbidden"), std::string::npos) << lines;
    EXPECT_NE(lines.find("system:serviceaccount:ctrl-system:" + account), std::string::npos) << lines;
    std::printf("[ e2e ] with patch on pods removed, the log says:\n%s\n", lines.substr(0, lines.find('\n')).c_str());
    StatusOr<ClusterSnapshot> snapshot = ReadSnapshot({ns});
    ASSERT_TRUE(snapshot.Ok()) << snapshot.GetStatus();
    for (const Object& pod : snapshot->pods)
        EXPECT_EQ(ActualAnnotation(pod), "") << pod.Name();
}

}  // namespace
}  // namespace ctrl::e2e
