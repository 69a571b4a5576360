// Issue 17, part 5, with the built operator: a kubeconfig that is not YAML, or YAML that is not a
// kubeconfig, makes it exit with code 1 and a message naming the file and what is wrong (no crash, no
// core); a Lease left by a dead holder is taken over once its duration has passed.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "ctrl/api/timestamp.hpp"
#include "test/e2e/operator_fixture.hpp"
#include "test/support/eventually.hpp"
#include "test/support/process.hpp"

namespace ctrl::e2e {
namespace {

using namespace std::chrono_literals;
using testing::Eventually;

struct BadKubeconfig {
    std::string name;
    std::string content;
    std::string problem;  // what the message must say
};

// The first bytes of an executable, NULs included: what a wrong --kubeconfig path may point at.
constexpr char kBinary[] =
    "\x7f"
    "ELF\x02\x01\x01\0\0\0\xff\xfe{[";

TEST(BadKubeconfigTest, TheOperatorExitsWithCode1NamingTheFileAndTheProblem) {
    const std::string dir = ::testing::TempDir() + "ctrl-e2e-bad-kubeconfig";
    std::filesystem::create_directories(dir);
    const std::vector<BadKubeconfig> cases = {
        {"not-yaml", "clusters: [\n  {name: c, cluster: {server: \"https://x\"\n\t: : ]]]\n", "invalid YAML"},
        {"binary", std::string(kBinary, sizeof kBinary - 1), "invalid YAML"},
        {"html", "<html><body><h1>502 Bad Gateway</h1></body></html>\n", "expected a map at the top level"},
        {"a-pod",
         "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: c\n    image: x\n",
         "no configuration"},
        {"wrong-shape", "apiVersion: v1\nkind: Config\nclusters: {name: c}\n", "clusters: expected a list"},
    };
    for (const BadKubeconfig& bad : cases) {
        SCOPED_TRACE(bad.name);
        const std::string path = dir + "/" + bad.name + ".kubeconfig";
        std::ofstream(path, std::ios::binary | std::ios::trunc) << bad.content;
        const std::string log = dir + "/" + bad.name + ".log";
        std::filesystem::remove(log);
        StatusOr<testing::ChildProcess> op =
            testing::ChildProcess::Start({CTRL_OPERATOR_BIN, "--kubeconfig", path}, log);
        ASSERT_TRUE(op.Ok()) << op.GetStatus();
        ASSERT_TRUE(Eventually([&] { return !op->Running(); }, testing::kTestWait, 50ms))
            << "still running with a bad kubeconfig: " << testing::TailOfFile(log, 20);
        const std::string said = testing::TailOfFile(log, 20);
        EXPECT_EQ(op->ExitDescription(), "exited with code 1") << said;
        EXPECT_NE(said.find("ctrl-operator: loading the cluster's config"), std::string::npos) << said;
        EXPECT_NE(said.find("kubeconfig " + path), std::string::npos) << "the file is not named: " << said;
        EXPECT_NE(said.find(bad.problem), std::string::npos) << "not said: " << bad.problem << "\n" << said;
        if (bad.problem == "invalid YAML") {
            EXPECT_NE(said.find("(line "), std::string::npos) << "no position, or a byte cut the message: " << said;
        }
        std::printf("[ e2e ] %s: %s", bad.name.c_str(), said.c_str());
    }
    std::filesystem::remove_all(dir);
}

using DeadLeaderTest = OperatorTest;

// The Lease the operator elects on, left by a replica that died an hour ago with a 3 s duration: the
// operator waits that long on its own clock, then takes it over (one more transition) and works.
TEST_F(DeadLeaderTest, ALeaseLeftByADeadHolderIsTakenOverAfterItsDuration) {
    const std::string lease_name = "ctrl-operator.ctrl.example.com";
    const std::string dead = "ctrl-operator-6d5f8-dead";
    const std::string long_ago = "2020-01-01T10:00:00.000000Z";  // far older than any clock skew
    ASSERT_TRUE(KubectlApply("apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: " + lease_name +
                                 "\nspec:\n  holderIdentity: " + dead +
                                 "\n  leaseDurationSeconds: 3\n  acquireTime: \"2020-01-01T09:00:00.000000Z\"\n"
                                 "  renewTime: \"" +
                                 long_ago + "\"\n  leaseTransitions: 7\n",
                             std::string(kOperatorNamespace))
                    .Ok());
    const std::string ns = MakeNamespace();
    const auto started = std::chrono::steady_clock::now();
    OperatorProcess* op =
        StartOperator({.name = "candidate",
                       .watch_namespaces = {ns},
                       .args = {"--leader-elect", "--leader-election-namespace=" + std::string(kOperatorNamespace)}});
    ASSERT_NE(op, nullptr);
    std::string holder;
    ASSERT_TRUE(Eventually(
        [&] {
            StatusOr<Object> lease = KubectlJson({"get", "lease", "-n", std::string(kOperatorNamespace), lease_name});
            holder = lease.Ok() ? lease->NestedString({"spec", "holderIdentity"}).ValueOr("") : "";
            return !holder.empty() && holder != dead;
        },
        testing::kTestWait, 200ms))
        << "the dead holder's Lease was not taken over; holder " << holder << op->LogTail();
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("[ e2e ] the operator took the dead holder's Lease %.1f s after it started (leaseDurationSeconds 3)\n",
                took);
    EXPECT_GE(took, 3.0 - 0.2) << "taken before the duration passed on the candidate's clock";
    EXPECT_GE(op->LogLinesWith({"Starting manager", holder}), 1) << "the new holder is this operator" << op->LogTail();
    StatusOr<Object> lease = KubectlJson({"get", "lease", "-n", std::string(kOperatorNamespace), lease_name});
    ASSERT_TRUE(lease.Ok());
    EXPECT_EQ(lease->NestedInt({"spec", "leaseTransitions"}).ValueOr(-1), 8);
    EXPECT_NE(lease->NestedString({"spec", "renewTime"}).ValueOr(long_ago), long_ago);

    Apply(ns, PodYaml("web-1", "app=web") + PodSelectorPolicyYaml("web", "app=web", "sg-web-1"));
    EXPECT_TRUE(AnnotationsConverge({ns}, testing::kTestWait)) << "the new leader reconciles";
}

}  // namespace
}  // namespace ctrl::e2e
