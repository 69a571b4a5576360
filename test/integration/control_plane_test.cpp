// The local control plane itself: the pinned kube-apiserver answers, the admin can write, RBAC
// denies a user without rights, and static-token users authenticate. Driven with the installed
// kubectl, so it checks the fixture independently of the project's own client.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <random>
#include <string>
#include <thread>

#include "test/support/control_plane_environment.hpp"
#include "test/support/eventually.hpp"
#include "test/support/kubectl.hpp"

namespace ctrl::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kTokenUser[] = "token-reader";
constexpr char kTokenGroup[] = "ctrl:token-readers";

// Runs kubectl and fails the test when kubectl could not run at all (not found, timed out).
CommandResult RunKubectl(const std::string& kubeconfig, const std::vector<std::string>& args) {
    auto result = Kubectl(kubeconfig, args);
    EXPECT_TRUE(result.Ok()) << result.GetStatus();
    return result.Ok() ? *result : CommandResult{};
}

std::string UniqueName(const std::string& prefix) {
    std::random_device random;
    return prefix + "-" + std::to_string(random() % 1000000);
}

TEST(ControlPlaneTest, ServesThePinnedVersion) {
    ControlPlane& cp = SharedControlPlane();
    std::cout << "kube-apiserver " << cp.Version() << " (pinned " << CTRL_KUBE_VERSION << "), etcd " << cp.EtcdVersion()
              << ", start-to-ready " << cp.StartupDuration().count() << " ms" << std::endl;
    ::testing::Test::RecordProperty("kube_apiserver_version", cp.Version());
    ::testing::Test::RecordProperty("startup_ms", std::to_string(cp.StartupDuration().count()));

    CommandResult version = RunKubectl(cp.KubeconfigPath(), {"get", "--raw", "/version"});
    ASSERT_EQ(version.exit_code, 0) << version.err;
    EXPECT_THAT(version.out, HasSubstr("\"gitVersion\": \"" CTRL_KUBE_VERSION "\""));
    EXPECT_EQ(cp.Version(), CTRL_KUBE_VERSION);
    EXPECT_EQ(cp.EtcdVersion(), CTRL_ETCD_VERSION);
    EXPECT_GT(cp.StartupDuration().count(), 0);
}

TEST(ControlPlaneTest, AdminCreatesANamespace) {
    ControlPlane& cp = SharedControlPlane();
    std::string ns = UniqueName("ctrl-it");
    CommandResult created = RunKubectl(cp.KubeconfigPath(), {"create", "namespace", ns});
    ASSERT_EQ(created.exit_code, 0) << created.err;
    CommandResult got = RunKubectl(cp.KubeconfigPath(), {"get", "namespace", ns, "-o", "jsonpath={.status.phase}"});
    ASSERT_EQ(got.exit_code, 0) << got.err;
    EXPECT_EQ(got.out, "Active");
}

TEST(ControlPlaneTest, UserWithoutRightsIsForbiddenUntilBound) {
    ControlPlane& cp = SharedControlPlane();
    std::string user = UniqueName("alice");
    auto kubeconfig = cp.AddUser(user, {"ctrl:testers"});
    ASSERT_TRUE(kubeconfig.Ok()) << kubeconfig.GetStatus();

    CommandResult whoami = RunKubectl(*kubeconfig, {"auth", "whoami", "-o", "jsonpath={.status.userInfo}"});
    ASSERT_EQ(whoami.exit_code, 0) << whoami.err;
    EXPECT_THAT(whoami.out, HasSubstr("\"username\":\"" + user + "\""));
    EXPECT_THAT(whoami.out, HasSubstr("ctrl:testers"));
    EXPECT_THAT(whoami.out, Not(HasSubstr("system:masters")));

    CommandResult create = RunKubectl(*kubeconfig, {"create", "namespace", UniqueName("denied")});
    EXPECT_NE(create.exit_code, 0);
    EXPECT_THAT(create.err, HasSubstr("Forbidden"));
    CommandResult list = RunKubectl(*kubeconfig, {"get", "namespaces"});
    EXPECT_NE(list.exit_code, 0);
    EXPECT_THAT(list.err, HasSubstr("Forbidden"));

    // No controller-manager runs, so the aggregated roles (view, edit) stay empty: bind a plain one.
    std::string role = UniqueName("ctrl-it-namespace-reader");
    CommandResult created =
        RunKubectl(cp.KubeconfigPath(), {"create", "clusterrole", role, "--verb=get,list", "--resource=namespaces"});
    ASSERT_EQ(created.exit_code, 0) << created.err;
    CommandResult bound = RunKubectl(cp.KubeconfigPath(),
                                     {"create", "clusterrolebinding", role, "--clusterrole=" + role, "--user=" + user});
    ASSERT_EQ(bound.exit_code, 0) << bound.err;
    // The RBAC authorizer reads through an informer: allow it a moment to see the binding.
    CommandResult allowed;
    const auto get_namespace = [&] {
        allowed = RunKubectl(*kubeconfig, {"get", "namespaces", "default", "-o", "name"});
        return allowed.exit_code == 0;
    };
    EXPECT_TRUE(Eventually(get_namespace, kTestWait, std::chrono::milliseconds(100))) << allowed.err;
    EXPECT_EQ(allowed.out, "namespace/default\n");
}

TEST(ControlPlaneTest, TokenUserIsAuthenticatedAndAuthorizedByRbac) {
    ControlPlane& cp = SharedControlPlane();
    auto kubeconfig = cp.TokenUserKubeconfig(kTokenUser);
    ASSERT_TRUE(kubeconfig.Ok()) << kubeconfig.GetStatus();

    CommandResult whoami = RunKubectl(*kubeconfig, {"auth", "whoami", "-o", "jsonpath={.status.userInfo}"});
    ASSERT_EQ(whoami.exit_code, 0) << whoami.err;
    EXPECT_THAT(whoami.out, HasSubstr(std::string("\"username\":\"") + kTokenUser + "\""));
    EXPECT_THAT(whoami.out, HasSubstr(kTokenGroup));

    // Discovery is open to every authenticated user; listing namespaces is not.
    CommandResult apis = RunKubectl(*kubeconfig, {"get", "--raw", "/apis"});
    EXPECT_EQ(apis.exit_code, 0) << apis.err;
    CommandResult list = RunKubectl(*kubeconfig, {"get", "namespaces"});
    EXPECT_NE(list.exit_code, 0);
    EXPECT_THAT(list.err, HasSubstr("Forbidden"));

    CommandResult wrong = RunKubectl(*kubeconfig, {"--token=not-a-known-token", "get", "--raw", "/apis"});
    EXPECT_NE(wrong.exit_code, 0);
    EXPECT_THAT(wrong.err, HasSubstr("Unauthorized"));
}

TEST(ControlPlaneTest, TokenUsersCannotBeAddedAfterStart) {
    auto token = SharedControlPlane().AddTokenUser("late", {});
    EXPECT_TRUE(IsBadRequest(token.GetStatus())) << token.GetStatus();
}

}  // namespace
}  // namespace ctrl::testing

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ctrl::testing::InstallControlPlaneEnvironment(
        {.token_users = {{.name = ctrl::testing::kTokenUser, .groups = {ctrl::testing::kTokenGroup}}}});
    return RUN_ALL_TESTS();
}
