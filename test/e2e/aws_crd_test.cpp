// Issue 28, acceptance 2 and 3, on a control plane of its own that has AWS's SecurityGroupPolicy and
// CNINode CRDs exactly as AWS publishes them (test/e2e/testdata/aws/: `subresources: {}`, no status),
// then the operator's manifests/ as on EKS, and kube-apiserver auditing every request to
// SecurityGroupPolicies:
//  1. `kubectl apply --dry-run=server -k manifests/` (and the real apply) leave AWS's CRDs as they
//     were: resourceVersion, generation and spec; the bare overlay would change them.
//  2. The operator beside AWS's CRD: the pods' annotations are right, the operator never touches
//     the status subresource (audit log: 0 requests), and says each policy's validity through
//     Events (PolicyValid, PolicyInvalid, once per change) and sgp_policy_valid, and once in its log
//     and readiness detail that the status subresource is absent.
//  3. The project's CRD replaces AWS's under the running operator: it notices (discovery, re-checked
//     every 10 s) and writes every policy's status as the contract says.
//  4. And back: AWS's CRD replaces the project's under a running operator, a policy changes at once;
//     its state moves to Events without a reconcile error.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "test/e2e/audit_log.hpp"
#include "test/e2e/operator_fixture.hpp"
#include "test/support/eventually.hpp"
#include "test/support/repo_path.hpp"

namespace ctrl::e2e {
namespace {

using namespace std::chrono_literals;
using testing::Eventually;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kOperatorUser[] = "system:serviceaccount:ctrl-system:ctrl-operator";
const std::vector<std::string> kAwsCrds = {std::string(kSgpCrdName), "cninodes.vpcresources.k8s.aws"};

// What must not change of a CRD: "resourceVersion <rv> generation <g> spec <json>".
std::string CrdIdentity(const std::string& name) {
    StatusOr<Object> crd = KubectlJson({"get", "crd", name});
    if (!crd.Ok())
        return crd.GetStatus().ToString();
    StatusOr<Object> spec = crd->NestedMap({"spec"});
    return "resourceVersion " + std::string(crd->ResourceVersion()) + " generation " +
           std::to_string(crd->Generation()) + " spec " + (spec.Ok() ? spec->ToJson() : spec.GetStatus().ToString());
}

// The namespace's ServiceAccount, pods and policies: two valid policies, one invalid.
std::string Workload() {
    return ServiceAccountYaml("payments", "role=payments") + PodYaml("web-1", "app=web") +
           PodYaml("pay-1", "app=api", "payments") + PodYaml("db-1", "app=db") +
           PodSelectorPolicyYaml("web", "app=web", "sg-web") +
           ServiceAccountSelectorPolicyYaml("payments", "role=payments", "sg-pay") + R"(
---
apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata:
  name: no-selector
spec:
  securityGroups:
    groupIds: [sg-none]
)";
}

// How many Events with reason are about the policy, their `count` fields added up.
int EventCount(const std::string& ns, const std::string& name, const std::string& reason) {
    StatusOr<std::vector<Object>> events = EventsAbout(ns, name, reason);
    if (!events.Ok())
        return -1;
    int total = 0;
    for (const Object& event : *events) {
        StatusOr<int64_t> count = event.NestedInt({"count"});
        total += count.Ok() && *count > 0 ? static_cast<int>(*count) : 1;
    }
    return total;
}

std::string MetricText(const OperatorProcess& op, const std::string& ns, const std::string& policy) {
    const std::optional<double> value =
        MetricValue(op.MetricsText(), "sgp_policy_valid", {{"namespace", ns}, {"name", policy}});
    return value ? std::to_string(static_cast<int>(*value)) : "-";
}

SgpRequests Audited(const std::string& ns) {
    StatusOr<SgpRequests> requests = AuditedSgpRequests(kOperatorUser, ns);
    EXPECT_TRUE(requests.Ok()) << requests.GetStatus();
    return requests.Ok() ? *requests : SgpRequests{-1, -1};
}

class AwsCrdTest : public OperatorTest {};

TEST_F(AwsCrdTest, ManifestsLeaveAwsCrdsUnchanged) {
    std::map<std::string, std::string> before;
    for (const std::string& crd : kAwsCrds)
        before[crd] = CrdIdentity(crd);
    StatusOr<std::string> dry_run = KubectlOut({"apply", "--dry-run=server", "-k", testing::RepoPath("manifests")});
    ASSERT_TRUE(dry_run.Ok()) << dry_run.GetStatus();
    EXPECT_THAT(*dry_run, Not(HasSubstr("customresourcedefinition"))) << *dry_run;
    StatusOr<std::string> applied = KubectlOut({"apply", "-k", testing::RepoPath("manifests")});
    ASSERT_TRUE(applied.Ok()) << applied.GetStatus();
    // The operators of these tests serve no webhooks (InstallOperatorManifests says why).
    ASSERT_TRUE(DeleteWebhookConfigurations().Ok());
    for (const std::string& crd : kAwsCrds)
        EXPECT_EQ(CrdIdentity(crd), before[crd]) << crd << " changed";
    StatusOr<Object> sgp_crd = KubectlJson({"get", "crd", std::string(kSgpCrdName)});
    ASSERT_TRUE(sgp_crd.Ok()) << sgp_crd.GetStatus();
    StatusOr<std::vector<Object>> versions = sgp_crd->NestedSlice({"spec", "versions"});
    ASSERT_TRUE(versions.Ok() && versions->size() == 1) << versions.GetStatus();
    EXPECT_FALSE(versions->front().HasNestedField({"subresources", "status"})) << "still AWS's: no status subresource";
    std::printf("[ e2e ] %s before and after the dry run and the apply: %.80s...\n", kSgpCrdName.data(),
                before[std::string(kSgpCrdName)].c_str());

    // What the test would catch: the overlay for bare clusters does change AWS's CRD.
    StatusOr<std::string> bare =
        KubectlOut({"apply", "--dry-run=server", "-k", testing::RepoPath("manifests/overlays/bare")});
    ASSERT_TRUE(bare.Ok()) << bare.GetStatus();
    EXPECT_THAT(*bare, HasSubstr("customresourcedefinition.apiextensions.k8s.io/" + std::string(kSgpCrdName) +
                                 " configured (server dry run)"));
    for (const std::string& crd : kAwsCrds)
        EXPECT_EQ(CrdIdentity(crd), before[crd]) << crd << " changed by a dry run";
}

TEST_F(AwsCrdTest, OperatorReportsThroughEventsAndMetricsAndNeverWritesStatus) {
    const std::string ns = MakeNamespace();
    Apply(ns, Workload());
    OperatorProcess* op = StartOperator({.name = "aws-crd", .watch_namespaces = {ns}});
    ASSERT_NE(op, nullptr);
    ASSERT_TRUE(WaitReady(*op));
    EXPECT_TRUE(AnnotationsConverge({ns}, testing::kTestWait));
    StatusOr<ClusterSnapshot> snapshot = ReadSnapshot({ns});
    ASSERT_TRUE(snapshot.Ok()) << snapshot.GetStatus();
    for (const auto& [pod, groups] :
         std::map<std::string, std::string>{{"web-1", "sg-web"}, {"pay-1", "sg-pay"}, {"db-1", ""}}) {
        ASSERT_NE(FindPod(*snapshot, ns, pod), nullptr) << pod;
        EXPECT_EQ(ActualAnnotation(*FindPod(*snapshot, ns, pod)), groups) << pod;
    }

    // Validity: Events and sgp_policy_valid.
    struct Reported {
        std::string policy, reason, type, valid;
    };
    for (const Reported& expected : std::vector<Reported>{{"web", "PolicyValid", "Normal", "1"},
                                                          {"payments", "PolicyValid", "Normal", "1"},
                                                          {"no-selector", "PolicyInvalid", "Warning", "0"}}) {
        EXPECT_TRUE(Eventually([&] { return HasEvent(ns, expected.policy, expected.reason, expected.type); },
                               testing::kTestWait, 200ms))
            << "no " << expected.type << " Event " << expected.reason << " on policy " << expected.policy;
        std::string seen;
        EXPECT_TRUE(Eventually([&] { return (seen = MetricText(*op, ns, expected.policy)) == expected.valid; },
                               testing::kTestWait, 200ms))
            << "sgp_policy_valid of " << expected.policy << ": " << seen << ", expected " << expected.valid;
    }
    EXPECT_TRUE(MetricValue(op->MetricsText(), "sgp_status_subresource") == 0.0) << "sgp_status_subresource 0";
    // Said once, in the log and the readiness detail.
    const testing::CurlResult readyz = op->Readyz();
    EXPECT_EQ(readyz.status, 200);
    EXPECT_THAT(readyz.body, HasSubstr("[+]sgp-status-subresource ok: SecurityGroupPolicy has no status subresource"));
    std::printf("[ e2e ] /readyz?verbose:\n%s", readyz.body.c_str());
    EXPECT_THAT(op->ReadyzCheck("sgp-status-subresource").body, HasSubstr("reported through Events"));

    // No Event spam: pods and policies change, the verdicts do not.
    ASSERT_TRUE(KubectlOut({"label", "pod", "-n", ns, "db-1", "tier=back"}).Ok());
    ASSERT_TRUE(KubectlOut({"annotate", "securitygrouppolicy", "-n", ns, "--all", "touched=yes"}).Ok());
    std::this_thread::sleep_for(3s);
    EXPECT_EQ(EventCount(ns, "web", "PolicyValid"), 1);
    EXPECT_EQ(EventCount(ns, "payments", "PolicyValid"), 1);
    EXPECT_EQ(EventCount(ns, "no-selector", "PolicyInvalid"), 1);
    EXPECT_EQ(EventCount(ns, "no-selector", "InvalidPolicy"), 0) << "InvalidPolicy is for the status mode";

    // The invalid policy made valid: an Event, the metric, and db-1 gets its group.
    ASSERT_TRUE(KubectlOut({"patch", "securitygrouppolicy", "-n", ns, "no-selector", "--type=merge", "-p",
                            R"({"spec":{"podSelector":{"matchLabels":{"app":"db"}}}})"})
                    .Ok());
    EXPECT_TRUE(
        Eventually([&] { return HasEvent(ns, "no-selector", "PolicyValid", "Normal"); }, testing::kTestWait, 200ms));
    EXPECT_TRUE(Eventually([&] { return MetricText(*op, ns, "no-selector") == "1"; }, testing::kTestWait, 200ms));
    EXPECT_TRUE(AnnotationsConverge({ns}, testing::kTestWait));

    const SgpRequests requests = Audited(ns);
    EXPECT_GT(requests.all, 0) << "the audit log records the operator's SecurityGroupPolicy requests";
    EXPECT_EQ(requests.status, 0) << "no request to the status subresource";
    const std::string text = op->MetricsText();
    EXPECT_EQ(
        MetricSum(text, "controller_runtime_reconcile_total", {{"controller", "sgp-status"}, {"result", "error"}}),
        0.0);
    EXPECT_EQ(op->LogLinesWith({"has no status subresource"}), 1) << "said once in the log";
    EXPECT_EQ(op->LogLinesWith({"Reconciler error"}), 0);
    std::printf(
        "[ figures ] audit: %d SecurityGroupPolicy requests by the operator, %d to the status subresource; "
        "sgp-status reconciles: %.0f, errors: %.0f; PolicyValid Events on web: %d\n",
        requests.all, requests.status,
        MetricSum(text, "controller_runtime_reconcile_total", {{"controller", "sgp-status"}}),
        MetricSum(text, "controller_runtime_reconcile_total", {{"controller", "sgp-status"}, {"result", "error"}}),
        EventCount(ns, "web", "PolicyValid"));
}

// Runs last: it replaces AWS's CRD with the project's.
TEST_F(AwsCrdTest, TheProjectsCrdUnderTheRunningOperatorGetsEveryStatusWritten) {
    const std::string ns = MakeNamespace();
    Apply(ns, Workload());
    OperatorProcess* op = StartOperator({.name = "aws-then-project-crd", .watch_namespaces = {ns}});
    ASSERT_NE(op, nullptr);
    ASSERT_TRUE(WaitReady(*op));
    EXPECT_TRUE(AnnotationsConverge({ns}, testing::kTestWait));
    EXPECT_TRUE(
        Eventually([&] { return HasEvent(ns, "no-selector", "PolicyInvalid", "Warning"); }, testing::kTestWait, 200ms));
    EXPECT_EQ(Audited(ns).status, 0);

    const auto replaced = std::chrono::steady_clock::now();
    const Status crd = InstallSgpCrd();
    ASSERT_TRUE(crd.Ok()) << crd;
    ExpectStatusesAndEvents({ns});
    std::printf(
        "[ figures ] the project's CRD applied -> every status as the contract says: %.2f s (re-check every "
        "10 s)\n",
        std::chrono::duration<double>(std::chrono::steady_clock::now() - replaced).count());
    const SgpRequests requests = Audited(ns);
    EXPECT_GE(requests.status, 3) << "one status write per policy at least";
    EXPECT_TRUE(Eventually([&] { return MetricValue(op->MetricsText(), "sgp_status_subresource") == 1.0; },
                           testing::kTestWait, 200ms));
    EXPECT_THAT(op->Readyz().body, HasSubstr("[+]sgp-status-subresource ok\n"));
    EXPECT_EQ(op->LogLinesWith({"has a status subresource"}), 1);
    EXPECT_EQ(op->LogLinesWith({"Reconciler error"}), 0);
    std::printf("[ figures ] audit: %d requests to the status subresource after the switch\n", requests.status);
}

// Runs after the previous test: the project's CRD is installed, and AWS's replaces it under the
// running operator, then a policy changes at once: its status write may meet the missing subresource
// (404) before the 10 s re-check. Either way: Events from then on, no reconcile error.
TEST_F(AwsCrdTest, AwsCrdReplacingTheProjectsUnderTheRunningOperatorMovesStateToEvents) {
    const std::string ns = MakeNamespace();
    Apply(ns, Workload());
    OperatorProcess* op = StartOperator({.name = "project-then-aws-crd", .watch_namespaces = {ns}});
    ASSERT_NE(op, nullptr);
    ASSERT_TRUE(WaitReady(*op));
    ExpectStatusesAndEvents({ns});

    const auto replaced = std::chrono::steady_clock::now();
    ASSERT_TRUE(KubectlOut({"apply", "-f", testing::RepoPath(kAwsSgpCrdFile)}).Ok());
    ASSERT_TRUE(KubectlOut({"patch", "securitygrouppolicy", "-n", ns, "web", "--type=merge", "-p",
                            R"({"spec":{"securityGroups":{"groupIds":["sg-web-2"]}}})"})
                    .Ok());
    EXPECT_TRUE(Eventually([&] { return HasEvent(ns, "web", "PolicyValid", "Normal"); }, testing::kTestWait, 200ms))
        << "no PolicyValid Event on web after AWS's CRD replaced the project's";
    EXPECT_TRUE(
        Eventually([&] { return HasEvent(ns, "no-selector", "PolicyInvalid", "Warning"); }, testing::kTestWait, 200ms));
    EXPECT_TRUE(AnnotationsConverge({ns}, testing::kTestWait));
    std::printf(
        "[ figures ] AWS's CRD applied -> PolicyValid and PolicyInvalid Events: %.2f s; status writes that "
        "met the missing subresource: %d\n",
        std::chrono::duration<double>(std::chrono::steady_clock::now() - replaced).count(),
        op->LogLinesWith({"The status write answered 404"}));
    const std::string text = op->MetricsText();
    EXPECT_EQ(
        MetricSum(text, "controller_runtime_reconcile_total", {{"controller", "sgp-status"}, {"result", "error"}}),
        0.0);
    EXPECT_EQ(op->LogLinesWith({"Reconciler error"}), 0);
    EXPECT_EQ(op->LogLinesWith({"SecurityGroupPolicy has no status subresource (its CRD"}), 1) << "said once";
    EXPECT_TRUE(Eventually([&] { return MetricValue(op->MetricsText(), "sgp_status_subresource") == 0.0; },
                           testing::kTestWait, 200ms));
}

}  // namespace
}  // namespace ctrl::e2e
