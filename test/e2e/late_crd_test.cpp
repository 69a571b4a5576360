// Issue 15, acceptance 2, in its own test binary (a control plane whose SecurityGroupPolicy CRD is
// not installed): the operator starts and serves pods without the CRD, says so (/readyz/
// sgp-kind-served, the sgp_kind_served metric, a log line) and leaves pods without groups; the CRD
// is installed 20 s after the start, and every matching pod gets its groups within 15 s of that,
// from the same process (its pid unchanged, never exited). Then (issue 29) the CRD is deleted
// under a running operator and comes back.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <sstream>
#include <thread>

#include "test/e2e/kubectl_admin.hpp"
#include "test/e2e/operator_fixture.hpp"
#include "test/support/crd_deletion.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::e2e {
namespace {

using namespace std::chrono_literals;
using testing::Eventually;
using ::testing::HasSubstr;

std::string Lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

// Whether text names the SecurityGroupPolicy kind (or its resource) as missing.
bool SaysKindMissing(const std::string& text) {
    const std::string lower = Lower(text);
    const bool names_kind = lower.find("securitygrouppolic") != std::string::npos;
    const bool missing = lower.find("not served") != std::string::npos ||
                         lower.find("not installed") != std::string::npos ||
                         lower.find("no match") != std::string::npos || lower.find("not found") != std::string::npos;
    return names_kind && missing;
}

// The first log line that says the kind is missing ("" when none).
std::string MissingKindLogLine(const OperatorProcess& process) {
    std::istringstream in(process.Log());
    for (std::string line; std::getline(in, line);) {
        if (SaysKindMissing(line))
            return line;
    }
    return "";
}

using LateCrdTest = OperatorTest;

TEST_F(LateCrdTest, StartsWithoutTheCrdAndAppliesPoliciesOnceItIsInstalledWithoutARestart) {
    const std::string ns = MakeNamespace();
    Apply(ns, ServiceAccountYaml("payments", "role=payments") + PodYaml("web-1", "app=web") +
                  PodYaml("web-2", "app=web,tier=front") + PodYaml("pay-1", "app=api", "payments") +
                  PodYaml("db-1", "app=db"));
    ASSERT_FALSE(KubectlOut({"get", "crd", std::string(kSgpCrdName)}).Ok()) << "the CRD must not be installed yet";

    const auto started = std::chrono::steady_clock::now();
    OperatorProcess* op = StartOperator({.name = "late-crd", .watch_namespaces = {ns}});
    ASSERT_NE(op, nullptr);
    const pid_t pid = op->Pid();

    // Before: the readiness detail, the metric and the log say the kind is missing.
    testing::CurlResult check;
    EXPECT_TRUE(Eventually(
        [&] {
            check = op->ReadyzCheck("sgp-kind-served");
            return check.status == 500 && SaysKindMissing(check.body);
        },
        testing::kTestWait, 200ms))
        << "/readyz/sgp-kind-served answered " << check.status << ": " << check.body;
    std::printf("[ e2e ] before the CRD, /readyz/sgp-kind-served: %d %s", check.status, check.body.c_str());
    const testing::CurlResult verbose = op->Readyz();
    EXPECT_EQ(verbose.status, 500);
    EXPECT_THAT(verbose.body, HasSubstr("[-]sgp-kind-served failed"));
    std::string text;
    EXPECT_TRUE(Eventually(
        [&] {
            text = op->MetricsText();
            return MetricValue(text, "sgp_kind_served") == 0.0;
        },
        testing::kTestWait, 200ms))
        << "sgp_kind_served 0 expected:\n"
        << MetricLines(text, "sgp_kind_served");
    EXPECT_TRUE(Eventually([&] { return !MissingKindLogLine(*op).empty(); }, testing::kTestWait, 200ms))
        << "no log line says the SecurityGroupPolicy kind is missing";
    std::printf("[ e2e ] the log says: %s\n", MissingKindLogLine(*op).c_str());

    // The pods are served (reconciled) and carry no annotation.
    EXPECT_TRUE(Eventually(
        [&] {
            text = op->MetricsText();
            return MetricSum(text, "controller_runtime_reconcile_total", {{"controller", "sgp-pods"}}) >= 4;
        },
        testing::kTestWait, 200ms))
        << "the sgp-pods controller did not reconcile the four pods:\n"
        << MetricLines(text, "controller_runtime_reconcile_total");
    StatusOr<ClusterSnapshot> before = ReadSnapshot({ns}, /*with_policies=*/false);
    ASSERT_TRUE(before.Ok()) << before.GetStatus();
    ASSERT_EQ(before->pods.size(), 4u);
    for (const Object& pod : before->pods)
        EXPECT_EQ(ActualAnnotation(pod), "") << pod.Name();

    // The CRD 20 s after the start, then the policies.
    std::this_thread::sleep_until(started + 20s);
    ASSERT_TRUE(op->Running()) << op->LogTail(40);
    EXPECT_NE(op->ReadyzCheck("sgp-kind-served").status, 200) << "still missing just before the CRD";
    const auto installed = std::chrono::steady_clock::now();
    const Status crd = InstallSgpCrd();
    ASSERT_TRUE(crd.Ok()) << crd;
    Apply(ns, PodSelectorPolicyYaml("web", "app=web", "sg-web") +
                  ServiceAccountSelectorPolicyYaml("payments", "role=payments", "sg-pay"));
    // Every matching pod gets its groups within 15 s of the CRD's installation.
    const auto left = installed + kLateCrdBound - std::chrono::steady_clock::now();
    EXPECT_TRUE(AnnotationsConverge({ns}, std::max<std::chrono::steady_clock::duration>(left, 0s)));
    std::printf("[ figures ] CRD installed -> every pod with its groups: %.2f s\n",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - installed).count());
    StatusOr<ClusterSnapshot> after = ReadSnapshot({ns});
    ASSERT_TRUE(after.Ok()) << after.GetStatus();
    for (const auto& [name, groups] : std::map<std::string, std::string>{
             {"web-1", "sg-web"}, {"web-2", "sg-web"}, {"pay-1", "sg-pay"}, {"db-1", ""}}) {
        const Object* pod = FindPod(*after, ns, name);
        ASSERT_NE(pod, nullptr) << name;
        EXPECT_EQ(ExpectedAnnotation(*pod, *after), groups) << name;
        EXPECT_EQ(ActualAnnotation(*pod), groups) << name;
    }

    // The same process, now ready and saying the kind is served.
    EXPECT_TRUE(op->Running()) << op->LogTail(40);
    EXPECT_EQ(op->Pid(), pid);
    EXPECT_TRUE(
        Eventually([&] { return op->ReadyzCheck("sgp-kind-served").status == 200; }, testing::kTestWait, 200ms));
    EXPECT_TRUE(WaitReady(*op));
    EXPECT_TRUE(Eventually([&] { return MetricValue(op->MetricsText(), "sgp_kind_served") == 1.0; }, testing::kTestWait,
                           200ms));
    EXPECT_EQ(op->LogLinesWith({"Starting manager"}), 1) << "one start in the log";
}

// Issue 29, acceptance 2, end to end: the CRD deleted while the operator runs turns
// sgp_kind_served to 0 and /readyz/sgp-kind-served names the kind (its informer stopped, the
// source waits for the kind again); recreated, the same process applies policies again and
// sgp_kind_served is 1, without a restart.
TEST_F(LateCrdTest, ACrdDeletedWhileRunningIsReportedThenPickedUpAgainWithoutARestart) {
    ASSERT_TRUE(InstallSgpCrd().Ok());
    const std::string ns = MakeNamespace();
    Apply(ns, PodYaml("web-1", "app=web"));
    OperatorProcess* op = StartOperator({.name = "crd-deleted", .watch_namespaces = {ns}});
    ASSERT_NE(op, nullptr);
    const pid_t pid = op->Pid();
    EXPECT_TRUE(Eventually([&] { return MetricValue(op->MetricsText(), "sgp_kind_served") == 1.0; }, testing::kTestWait,
                           200ms));

    const auto deleting = std::chrono::steady_clock::now();
    const Status deleted = testing::DeleteCrdAndWait(AdminKubeconfig(), std::string(kSgpCrdName));
    ASSERT_TRUE(deleted.Ok()) << deleted;
    const auto gone = std::chrono::steady_clock::now();
    testing::CurlResult check;
    EXPECT_TRUE(Eventually(
        [&] {
            check = op->ReadyzCheck("sgp-kind-served");
            return check.status == 500 && SaysKindMissing(check.body) &&
                   MetricValue(op->MetricsText(), "sgp_kind_served") == 0.0;
        },
        10s, 100ms))
        << "/readyz/sgp-kind-served answered " << check.status << ": " << check.body << "\n"
        << MetricLines(op->MetricsText(), "sgp_kind_served");
    std::printf("[ figures ] CRD delete took %.2f s; gone -> sgp_kind_served 0: %.2f s\n",
                std::chrono::duration<double>(gone - deleting).count(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - gone).count());
    std::printf("[ e2e ] after the CRD was deleted, /readyz/sgp-kind-served: %d %s", check.status, check.body.c_str());

    const auto reinstalled = std::chrono::steady_clock::now();
    ASSERT_TRUE(InstallSgpCrd().Ok());
    Apply(ns, PodSelectorPolicyYaml("web", "app=web", "sg-web"));
    EXPECT_TRUE(AnnotationsConverge({ns}, kLateCrdBound));
    StatusOr<ClusterSnapshot> after = ReadSnapshot({ns});
    ASSERT_TRUE(after.Ok()) << after.GetStatus();
    const Object* pod = FindPod(*after, ns, "web-1");
    ASSERT_NE(pod, nullptr);
    EXPECT_EQ(ActualAnnotation(*pod), "sg-web");
    EXPECT_TRUE(Eventually([&] { return MetricValue(op->MetricsText(), "sgp_kind_served") == 1.0; }, testing::kTestWait,
                           200ms));
    std::printf("[ figures ] CRD reinstalled -> the pod with its groups and sgp_kind_served 1: %.2f s\n",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - reinstalled).count());
    EXPECT_TRUE(op->Running()) << op->LogTail(40);
    EXPECT_EQ(op->Pid(), pid);
}

}  // namespace
}  // namespace ctrl::e2e
