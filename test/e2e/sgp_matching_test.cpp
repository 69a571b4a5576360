// Issue 15, acceptance 1: the ten matching cases of docs/sgp.md, each against the built operator
// (its own process, its own namespaces). Each case's objects are made once the operator is ready;
// every pod must then carry what the rules give (computed by the test from a fresh kubectl list,
// sgp_expectation.hpp) within 5 s, and what the case states by hand. Then each policy's status
// (observedGeneration, matchedPods, Ready True/Valid or False/<reason>), the SecurityGroupsChanged
// Event of every pod that got groups, and the InvalidPolicy Event of every invalid policy.
// Built a second time with CTRL_E2E_SHARDED (operator_matching_sharded_e2e_test): each case against
// three replicas whose pod controller is sharded over one ring (--shard-ring), the policy-status
// controller leader-elected; the metrics are the replicas' sums.

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "test/e2e/kubectl_admin.hpp"
#include "test/e2e/operator_fixture.hpp"
#include "test/support/eventually.hpp"
#include "test/support/repo_path.hpp"

namespace ctrl::e2e {
namespace {

using namespace std::chrono_literals;
using testing::Eventually;

class SgpMatchingTest : public OperatorTest {
  protected:
    void SetUp() override {
        ns_ = MakeNamespace();
        other_ = MakeNamespace("other");
        // Plain-HTTP /metrics, read without a token (explicit: in a container, in-cluster, it would
        // default to HTTPS).
#ifdef CTRL_E2E_SHARDED
        // The ring's Leases need list and delete (components/sharded's Role); one ring and one
        // leader election per case.
        ASSERT_TRUE(
            KubectlOut({"apply", "-f", testing::RepoPath("manifests/components/sharded/shard_ring_role.yaml")}).Ok());
        const std::string id = std::to_string(std::hash<std::string>{}(ns_) % 1'000'000'000);
        for (int i = 0; i < 3; ++i) {
            OperatorProcess* replica =
                StartOperator({.name = "matching-" + std::to_string(i), .watch_namespaces = {ns_, other_}, .args = {
                                   "--metrics-secure=false",
                                   "--leader-elect",
                                   "--leader-election-id=matching-" + id,
                                   "--leader-election-namespace=ctrl-system",
                                   "--shard-ring=ring-" + id,
                                   "--shard-identity=replica-" + std::to_string(i),
                                   "--shard-namespace=ctrl-system"
                               }});
            ASSERT_NE(replica, nullptr);
            replicas_.push_back(replica);
        }
        // Ready once its ring has settled: every replica owns its share.
        for (const OperatorProcess* replica : replicas_)
            ASSERT_TRUE(WaitReady(*replica));
#else
        replicas_.push_back(
            StartOperator({.name = "matching", .watch_namespaces = {ns_, other_}, .args = {"--metrics-secure=false"}}));
        ASSERT_NE(replicas_.back(), nullptr);
        ASSERT_TRUE(WaitReady(*replicas_.back()));
#endif
    }

    // Every replica's /metrics, one after the other: a sum over them counts each series once.
    std::string MetricsOfAll() const {
        std::string text;
        for (const OperatorProcess* replica : replicas_)
            text += replica->MetricsText();
        return text;
    }

    // The pods of the namespace carry what the rules give within 5 s, and what the case states
    // (`stated`: pod name -> annotation, "" for none); the statuses and Events follow.
    void ExpectPods(const std::string& ns, const std::map<std::string, std::string>& stated) {
        EXPECT_TRUE(AnnotationsConverge({ns_, other_}));
        StatusOr<ClusterSnapshot> snapshot = ReadSnapshot({ns_, other_});
        ASSERT_TRUE(snapshot.Ok()) << snapshot.GetStatus();
        for (const auto& [name, annotation] : stated) {
            const Object* pod = FindPod(*snapshot, ns, name);
            ASSERT_NE(pod, nullptr) << name;
            EXPECT_EQ(ExpectedAnnotation(*pod, *snapshot), annotation)
                << "the rules, as the test computes them: " << name;
            EXPECT_EQ(ActualAnnotation(*pod), annotation) << "pod " << ns << "/" << name;
        }
    }

    std::string ns_;
    std::string other_;
    std::vector<OperatorProcess*> replicas_;
};

TEST_F(SgpMatchingTest, PodSelectorOnly) {
    Apply(ns_, R"(
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
)" + PodYaml("web-1", "app=web,tier=front") +
                   PodYaml("db-1", "app=db"));
    ExpectPods(ns_, {{"web-1", "sg-web-1,sg-web-2"}, {"db-1", ""}});
    ExpectStatusesAndEvents({ns_, other_});
    std::string text;
    const auto counted = [&] {
        text = MetricsOfAll();
        return MetricSum(text, "sgp_pods", {{"namespace", ns_}, {"has_security_groups", "true"}}) == 1.0 &&
               MetricSum(text, "sgp_pods", {{"namespace", ns_}, {"has_security_groups", "false"}}) == 1.0;
    };
    EXPECT_TRUE(Eventually(counted, testing::kTestWait, 200ms)) << MetricLines(text, "sgp_pods");
}

TEST_F(SgpMatchingTest, BothSelectorsOneFailing) {
    Apply(ns_, ServiceAccountYaml("payments", "role=payments") + ServiceAccountYaml("batch", "role=batch") + R"(
---
apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata:
  name: api-payments
spec:
  podSelector:
    matchLabels:
      app: api
  serviceAccountSelector:
    matchLabels:
      role: payments
  securityGroups:
    groupIds: [sg-pay]
)" + PodYaml("api-payments", "app=api", "payments") +
                   PodYaml("api-batch", "app=api", "batch") + PodYaml("web-payments", "app=web", "payments"));
    ExpectPods(ns_, {{"api-payments", "sg-pay"}, {"api-batch", ""}, {"web-payments", ""}});
    ExpectStatusesAndEvents({ns_, other_});
}

TEST_F(SgpMatchingTest, EmptySelectorMatchesEverything) {
    Apply(ns_, ServiceAccountYaml("default", "") + ServiceAccountYaml("runner", "team=a") + R"(
---
apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata:
  name: all-pods
spec:
  podSelector: {}
  securityGroups:
    groupIds: [sg-all]
---
apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata:
  name: all-accounts
spec:
  serviceAccountSelector: {}
  securityGroups:
    groupIds: [sg-accounts]
)" + PodYaml("labelled", "app=web", "runner") +
                   PodYaml("unlabelled", ""));
    // Name order: all-accounts before all-pods.
    ExpectPods(ns_, {{"labelled", "sg-accounts,sg-all"}, {"unlabelled", "sg-accounts,sg-all"}});
    ExpectStatusesAndEvents({ns_, other_});
}

TEST_F(SgpMatchingTest, PolicyOfAnotherNamespace) {
    Apply(other_, R"(
apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata:
  name: web
spec:
  podSelector:
    matchLabels:
      app: web
  securityGroups:
    groupIds: [sg-other-namespace]
)" + PodYaml("web-there", "app=web"));
    Apply(ns_, PodYaml("web-here", "app=web"));
    ExpectPods(other_, {{"web-there", "sg-other-namespace"}});
    ExpectPods(ns_, {{"web-here", ""}});
    ExpectStatusesAndEvents({ns_, other_});
}

TEST_F(SgpMatchingTest, InvalidPoliciesAreSkippedAndReported) {
    Apply(ns_, R"(
apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata:
  name: a-no-selector
spec:
  securityGroups:
    groupIds: [sg-no-selector]
---
apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata:
  name: b-no-group-ids
spec:
  podSelector:
    matchLabels:
      app: web
---
apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata:
  name: c-unknown-operator
spec:
  podSelector:
    matchExpressions:
      - key: app
        operator: Bogus
        values: [web]
  securityGroups:
    groupIds: [sg-unknown-operator]
---
apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata:
  name: d-in-without-values
spec:
  podSelector:
    matchExpressions:
      - key: app
        operator: In
  securityGroups:
    groupIds: [sg-in-without-values]
---
apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata:
  name: e-valid
spec:
  podSelector:
    matchLabels:
      app: web
  securityGroups:
    groupIds: [sg-valid]
)" + PodYaml("web-1", "app=web"));
    ExpectPods(ns_, {{"web-1", "sg-valid"}});
    ExpectStatusesAndEvents({ns_, other_});
    std::string text;
    const auto counted = [&] {
        text = MetricsOfAll();
        return MetricSum(text, "sgp_invalid_policies", {{"namespace", ns_}}) == 4.0;
    };
    EXPECT_TRUE(Eventually(counted, testing::kTestWait, 200ms)) << MetricLines(text, "sgp_invalid_policies");
}

TEST_F(SgpMatchingTest, OverlappingGroupIdsInPolicyNameOrder) {
    // Made in reverse name order: the order is the names', not the creation's.
    Apply(ns_, R"(
apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata:
  name: c-everyone
spec:
  podSelector: {}
  securityGroups:
    groupIds: [sg-4, sg-3]
---
apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata:
  name: b-front
spec:
  podSelector:
    matchLabels:
      tier: front
  securityGroups:
    groupIds: [sg-2, sg-3, sg-1]
---
apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata:
  name: a-web
spec:
  podSelector:
    matchLabels:
      app: web
  securityGroups:
    groupIds: [sg-1, sg-2, sg-1]
)" + PodYaml("web-front", "app=web,tier=front") +
                   PodYaml("front", "tier=front") + PodYaml("other", "app=db"));
    ExpectPods(ns_, {{"web-front", "sg-1,sg-2,sg-3,sg-4"}, {"front", "sg-2,sg-3,sg-1,sg-4"}, {"other", "sg-4,sg-3"}});
    ExpectStatusesAndEvents({ns_, other_});
}

TEST_F(SgpMatchingTest, NotInMatchesAnAbsentLabel) {
    Apply(ns_, R"(
apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata:
  name: not-canary
spec:
  podSelector:
    matchExpressions:
      - key: track
        operator: NotIn
        values: [canary]
  securityGroups:
    groupIds: [sg-stable]
)" + PodYaml("no-track", "app=web") +
                   PodYaml("stable", "app=web,track=stable") + PodYaml("canary", "app=web,track=canary"));
    ExpectPods(ns_, {{"no-track", "sg-stable"}, {"stable", "sg-stable"}, {"canary", ""}});
    ExpectStatusesAndEvents({ns_, other_});
}

TEST_F(SgpMatchingTest, ExistsAndDoesNotExist) {
    Apply(ns_, R"(
apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata:
  name: gpu
spec:
  podSelector:
    matchExpressions:
      - key: gpu
        operator: Exists
  securityGroups:
    groupIds: [sg-gpu]
---
apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata:
  name: no-gpu
spec:
  podSelector:
    matchExpressions:
      - key: gpu
        operator: DoesNotExist
  securityGroups:
    groupIds: [sg-cpu]
)" + PodYaml("gpu-true", "gpu=true") +
                   PodYaml("gpu-empty", "gpu=") + PodYaml("cpu", "app=batch"));
    ExpectPods(ns_, {{"gpu-true", "sg-gpu"}, {"gpu-empty", "sg-gpu"}, {"cpu", "sg-cpu"}});
    ExpectStatusesAndEvents({ns_, other_});
}

TEST_F(SgpMatchingTest, NoServiceAccountNameMeansDefault) {
    Apply(ns_, ServiceAccountYaml("default", "team=core") + ServiceAccountYaml("custom", "") + R"(
---
apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata:
  name: core-team
spec:
  serviceAccountSelector:
    matchLabels:
      team: core
  securityGroups:
    groupIds: [sg-core]
)" + PodYaml("no-account", "app=web") +
                   PodYaml("custom-account", "app=web", "custom"));
    ExpectPods(ns_, {{"no-account", "sg-core"}, {"custom-account", ""}});
    ExpectStatusesAndEvents({ns_, other_});
}

TEST_F(SgpMatchingTest, ServiceAccountLabelsChanging) {
    Apply(ns_, ServiceAccountYaml("runner", "role=payments") +
                   ServiceAccountSelectorPolicyYaml("payments", "role=payments", "sg-pay") +
                   PodYaml("runner-1", "app=a", "runner") + PodYaml("runner-2", "app=b", "runner") +
                   PodYaml("bystander", "app=a"));
    ExpectPods(ns_, {{"runner-1", "sg-pay"}, {"runner-2", "sg-pay"}, {"bystander", ""}});

    ASSERT_TRUE(KubectlOut({"label", "serviceaccount", "runner", "-n", ns_, "role=batch", "--overwrite"}).Ok());
    ExpectPods(ns_, {{"runner-1", ""}, {"runner-2", ""}, {"bystander", ""}});

    ASSERT_TRUE(KubectlOut({"label", "serviceaccount", "runner", "-n", ns_, "role=payments", "--overwrite"}).Ok());
    ExpectPods(ns_, {{"runner-1", "sg-pay"}, {"runner-2", "sg-pay"}, {"bystander", ""}});
    ExpectStatusesAndEvents({ns_, other_});
}

}  // namespace
}  // namespace ctrl::e2e
