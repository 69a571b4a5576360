// Issue 15, acceptance 6: two replicas of the operator with leader election (one Lease in
// ctrl-system, the manifests' Role): exactly one acts; SIGKILL of the leader while a pod and a
// policy are added; the other takes over and every pod ends with what the rules give, no pod's
// annotation ever being anything but its value before or after the change.

#include <gtest/gtest.h>

#include <signal.h>

#include <array>
#include <map>
#include <thread>

#include "test/e2e/operator_fixture.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::e2e {
namespace {

using namespace std::chrono_literals;
using testing::Eventually;

constexpr char kLeaseName[] = "ctrl-operator.ctrl.example.com";

// The Lease's holderIdentity ("" when released or absent).
std::string Holder() {
    StatusOr<Object> lease = KubectlJson({"get", "lease", "-n", std::string(kOperatorNamespace), kLeaseName});
    if (!lease.Ok())
        return "";
    StatusOr<std::string> holder = lease->NestedString({"spec", "holderIdentity"});
    return holder.Ok() ? *holder : "";
}

// The replica that started with that identity ("Starting manager" identity=...), nullptr for none.
OperatorProcess* WhoHolds(const std::string& holder, const std::array<OperatorProcess*, 2>& replicas) {
    for (OperatorProcess* replica : replicas) {
        if (!holder.empty() && replica->LogLinesWith({"Starting manager", holder}) > 0)
            return replica;
    }
    return nullptr;
}

double Reconciles(const OperatorProcess& replica) {
    return MetricSum(replica.MetricsText(), "controller_runtime_reconcile_total", {{"controller", "sgp-pods"}});
}

std::optional<double> MasterStatus(const OperatorProcess& replica) {
    return MetricValue(replica.MetricsText(), "leader_election_master_status", {{"name", kLeaseName}});
}

using LeaderElectionTest = OperatorTest;

TEST_F(LeaderElectionTest, OneReplicaActsAndTheOtherTakesOverAfterSigkillThroughAChange) {
    const std::string ns = MakeNamespace();
    Apply(ns, R"(
apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata:
  name: web
spec:
  podSelector:
    matchLabels:
      app: web
  securityGroups:
    groupIds: [sg-web]
)" + PodYaml("web-1", "app=web") +
                  PodYaml("web-2", "app=web") + PodYaml("db-1", "app=db"));
    const std::vector<std::string> election{"--leader-elect", std::string("--leader-election-id=") + kLeaseName,
                                            "--leader-election-namespace=" + std::string(kOperatorNamespace)};
    OperatorProcess* a = StartOperator({.name = "replica-a", .watch_namespaces = {ns}, .args = election});
    OperatorProcess* b = StartOperator({.name = "replica-b", .watch_namespaces = {ns}, .args = election});
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    const std::array<OperatorProcess*, 2> replicas{a, b};

    // Exactly one leads and acts.
    OperatorProcess* leader = nullptr;
    ASSERT_TRUE(
        Eventually([&] { return (leader = WhoHolds(Holder(), replicas)) != nullptr; }, testing::kTestWait, 200ms))
        << "no replica holds Lease " << kLeaseName << " (holder \"" << Holder() << "\")";
    OperatorProcess* standby = leader == a ? b : a;
    std::printf("[ e2e ] leader %s, standby %s\n", leader->Name().c_str(), standby->Name().c_str());
    EXPECT_TRUE(AnnotationsConverge({ns}, testing::kTestWait));
    EXPECT_TRUE(
        Eventually([&] { return MasterStatus(*leader) == 1.0 && Reconciles(*leader) >= 3; }, testing::kTestWait, 200ms))
        << MetricLines(leader->MetricsText(), "leader_election_master_status")
        << MetricLines(leader->MetricsText(), "controller_runtime_reconcile_total");
    // Both pass readiness (a standby's leader-only checks pass), as the Deployment's probes need.
    EXPECT_TRUE(WaitReady(*leader));
    EXPECT_TRUE(WaitReady(*standby));
    std::this_thread::sleep_for(3s);  // time for a standby that would act to show it
    EXPECT_NE(MasterStatus(*standby), 1.0);
    EXPECT_EQ(Reconciles(*standby), 0) << "the standby reconciled";
    EXPECT_GE(leader->LogLinesWith({"Elected leader"}), 1);
    EXPECT_EQ(standby->LogLinesWith({"Elected leader"}), 0);
    EXPECT_GE(leader->LogLinesWith({"Security groups changed"}), 2);
    EXPECT_EQ(standby->LogLinesWith({"Security groups changed"}), 0);

    // SIGKILL the leader and change things during the takeover.
    StatusOr<ClusterSnapshot> before = ReadSnapshot({ns});
    ASSERT_TRUE(before.Ok()) << before.GetStatus();
    std::map<std::string, std::string> annotation_before;
    for (const Object& pod : before->pods)
        annotation_before[std::string(pod.Name())] = ActualAnnotation(pod);
    const std::string dead_leader = Holder();
    ASSERT_EQ(kill(leader->Pid(), SIGKILL), 0);
    const auto killed = std::chrono::steady_clock::now();
    Apply(ns, R"(
apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata:
  name: db
spec:
  podSelector:
    matchLabels:
      app: db
  securityGroups:
    groupIds: [sg-db]
)" + PodYaml("web-3", "app=web"));
    EXPECT_EQ(Holder(), dead_leader) << "the change is made before the takeover";

    // Through the takeover every pod shows its value before or after the change, until all agree
    // with the rules. The bound is the Lease's: 15 s of LeaseDuration, then the new leader's start.
    std::string wrong;
    std::string mismatches = "(never read)";
    const bool converged = Eventually(
        [&] {
            StatusOr<ClusterSnapshot> now = ReadSnapshot({ns});
            if (!now.Ok())
                return false;
            for (const Object& pod : now->pods) {
                const std::string actual = ActualAnnotation(pod);
                const std::string name(pod.Name());
                const auto old = annotation_before.find(name);
                const bool was = old != annotation_before.end() ? actual == old->second : actual.empty();
                if (!was && actual != ExpectedAnnotation(pod, *now))
                    wrong += "pod " + name + " had \"" + actual + "\"\n";
            }
            mismatches = AnnotationMismatches(*now);
            return mismatches.empty();
        },
        2 * testing::kTestWait, 200ms);
    EXPECT_TRUE(converged) << mismatches;
    EXPECT_EQ(wrong, "") << "an annotation neither before nor after the change";
    std::printf("[ figures ] SIGKILL of the leader -> every pod right, change included: %.2f s\n",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - killed).count());
    EXPECT_TRUE(WhoHolds(Holder(), replicas) == standby) << "holder \"" << Holder() << "\"";
    EXPECT_EQ(MasterStatus(*standby), 1.0);
    EXPECT_GE(standby->LogLinesWith({"Elected leader"}), 1);
    StatusOr<ClusterSnapshot> after = ReadSnapshot({ns});
    ASSERT_TRUE(after.Ok()) << after.GetStatus();
    for (const auto& [name, groups] : std::map<std::string, std::string>{
             {"web-1", "sg-web"}, {"web-2", "sg-web"}, {"web-3", "sg-web"}, {"db-1", "sg-db"}}) {
        const Object* pod = FindPod(*after, ns, name);
        ASSERT_NE(pod, nullptr) << name;
        EXPECT_EQ(ActualAnnotation(*pod), groups) << name;
    }

    // SIGTERM stops the new leader gracefully, releasing the Lease.
    const std::string how = standby->Process().Stop(std::chrono::seconds(30));
    EXPECT_EQ(how, "exited with code 0") << standby->LogTail(30);
    EXPECT_EQ(Holder(), "") << "the Lease is released on SIGTERM";
}

}  // namespace
}  // namespace ctrl::e2e
