#include "ctrl/rest/in_cluster.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "ctrl/rest/load_config.hpp"
#include "test/unit/rest/kubeconfig_test_util.hpp"

namespace ctrl::rest {
namespace {

using testing::TempDir;
using Env = std::map<std::string, std::string>;

const Env kInCluster = {{"KUBERNETES_SERVICE_HOST", "10.96.0.1"}, {"KUBERNETES_SERVICE_PORT", "443"}};

// A fake /var/run/secrets/kubernetes.io/serviceaccount.
std::string FakeServiceAccount(const TempDir& dir, bool with_ca = true, bool with_namespace = true) {
    dir.Write("sa/token", "sa-token\n");
    if (with_ca)
        dir.Write("sa/ca.crt", "CLUSTER-CA");
    if (with_namespace)
        dir.Write("sa/namespace", "operators\n");
    return dir.Path("sa");
}

std::string Kubeconfig(const std::string& token) {
    return "current-context: dev\nclusters:\n- name: c\n  cluster:\n    server: https://kube.example\n"
           "users:\n- name: u\n  user:\n    token: " +
           token + "\ncontexts:\n- name: dev\n  context:\n    cluster: c\n    user: u\n";
}

TEST(InClusterConfigTest, ReadsTheServiceAccount) {
    TempDir dir;
    auto config = InClusterConfig({.service_account_dir = FakeServiceAccount(dir), .environment = kInCluster});
    ASSERT_TRUE(config.Ok()) << config.GetStatus();
    EXPECT_EQ(config->host, "https://10.96.0.1:443");
    EXPECT_EQ(config->bearer_token_file, dir.Path("sa/token"));
    EXPECT_EQ(config->bearer_token, "sa-token");
    EXPECT_EQ(config->tls.ca_pem, "CLUSTER-CA");
    EXPECT_EQ(config->default_namespace, "operators");
    EXPECT_EQ(config->source, "in-cluster service account " + dir.Path("sa"));
    EXPECT_TRUE(config->in_cluster);
}

TEST(InClusterConfigTest, BracketsAnIpv6Host) {
    TempDir dir;
    auto config = InClusterConfig(
        {.service_account_dir = FakeServiceAccount(dir),
         .environment = Env{{"KUBERNETES_SERVICE_HOST", "fd00::1"}, {"KUBERNETES_SERVICE_PORT", "6443"}}});
    ASSERT_TRUE(config.Ok()) << config.GetStatus();
    EXPECT_EQ(config->host, "https://[fd00::1]:6443");
}

TEST(InClusterConfigTest, NamespaceFromPodNamespaceThenFileThenDefault) {
    TempDir dir;
    Env env = kInCluster;
    env["POD_NAMESPACE"] = "from-env";
    auto from_env = InClusterConfig({.service_account_dir = FakeServiceAccount(dir), .environment = env});
    ASSERT_TRUE(from_env.Ok()) << from_env.GetStatus();
    EXPECT_EQ(from_env->default_namespace, "from-env");

    TempDir bare;
    auto fallback =
        InClusterConfig({.service_account_dir = FakeServiceAccount(bare, false, false), .environment = kInCluster});
    ASSERT_TRUE(fallback.Ok()) << fallback.GetStatus();
    EXPECT_EQ(fallback->default_namespace, "default");
    EXPECT_EQ(fallback->tls.ca_pem, "");  // the system trust store, as client-go
}

TEST(InClusterConfigTest, NotInAClusterIsNotFound) {
    TempDir dir;
    auto config = InClusterConfig({.service_account_dir = FakeServiceAccount(dir), .environment = Env{}});
    EXPECT_TRUE(IsNotFound(config.GetStatus()));
    EXPECT_EQ(config.GetStatus().Message(),
              "not running in a cluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set for the "
              "in-cluster config");
}

TEST(InClusterConfigTest, MissingTokenIsBadRequestNamingTheFile) {
    TempDir dir;
    auto config = InClusterConfig({.service_account_dir = dir.Path("sa"), .environment = kInCluster});
    EXPECT_TRUE(IsBadRequest(config.GetStatus()));
    EXPECT_EQ(config.GetStatus().Message(),
              "in-cluster config: service account token " + dir.Path("sa/token") + ": No such file or directory");
}

TEST(LoadConfigTest, ExplicitKubeconfigWinsEvenInACluster) {
    TempDir dir;
    const std::string path = dir.Write("explicit", Kubeconfig("explicit"));
    auto config =
        LoadConfig({.kubeconfig = path, .environment = kInCluster, .service_account_dir = FakeServiceAccount(dir)});
    ASSERT_TRUE(config.Ok()) << config.GetStatus();
    EXPECT_EQ(config->bearer_token, "explicit");
}

TEST(LoadConfigTest, InClusterWhenKubeconfigIsUnset) {
    TempDir dir;
    Env env = kInCluster;
    env["HOME"] = dir.Path();
    dir.Write(".kube/config", Kubeconfig("home"));
    auto config = LoadConfig({.environment = env, .service_account_dir = FakeServiceAccount(dir)});
    ASSERT_TRUE(config.Ok()) << config.GetStatus();
    EXPECT_EQ(config->bearer_token_file, dir.Path("sa/token"));
}

TEST(LoadConfigTest, KubeconfigEnvSkipsInCluster) {
    TempDir dir;
    Env env = kInCluster;
    env["KUBECONFIG"] = dir.Write("listed", Kubeconfig("listed"));
    auto config = LoadConfig({.environment = env, .service_account_dir = FakeServiceAccount(dir)});
    ASSERT_TRUE(config.Ok()) << config.GetStatus();
    EXPECT_EQ(config->bearer_token, "listed");
}

TEST(LoadConfigTest, HomeKubeconfigWhenNotInACluster) {
    TempDir dir;
    dir.Write(".kube/config", Kubeconfig("home"));
    auto config = LoadConfig(
        {.context = "dev", .environment = Env{{"HOME", dir.Path()}}, .service_account_dir = FakeServiceAccount(dir)});
    ASSERT_TRUE(config.Ok()) << config.GetStatus();
    EXPECT_EQ(config->bearer_token, "home");

    // A pod whose token is missing falls back to the kubeconfig too.
    Env broken = kInCluster;
    broken["HOME"] = dir.Path();
    auto fallback = LoadConfig({.environment = broken, .service_account_dir = dir.Path("no-sa")});
    ASSERT_TRUE(fallback.Ok()) << fallback.GetStatus();
    EXPECT_EQ(fallback->bearer_token, "home");
}

TEST(LoadConfigTest, NothingFoundGivesBothReasons) {
    TempDir dir;
    auto config = LoadConfig({.environment = Env{{"HOME", dir.Path()}}, .service_account_dir = dir.Path("sa")});
    EXPECT_TRUE(IsNotFound(config.GetStatus()));
    EXPECT_EQ(config.GetStatus().Message(),
              "no kubeconfig found: " + dir.Path(".kube/config") +
                  " does not exist (in-cluster config: not running in a cluster: KUBERNETES_SERVICE_HOST and "
                  "KUBERNETES_SERVICE_PORT must be set for the in-cluster config)");
}

TEST(ParseConfigFlagsTest, ReadsKubeconfigAndContextInEveryForm) {
    const char* argv[] = {"op",   "--kubeconfig=/a", "--metrics-bind-address", ":8080", "-context",
                          "prod", "--zap-devel"};
    auto options = ParseConfigFlags(7, argv);
    ASSERT_TRUE(options.Ok()) << options.GetStatus();
    EXPECT_EQ(options->kubeconfig, "/a");
    EXPECT_EQ(options->context, "prod");

    const char* spaced[] = {"op", "--kubeconfig", "/b", "--context=dev", "--kubeconfig-extra=x"};
    auto second = ParseConfigFlags(5, spaced);
    ASSERT_TRUE(second.Ok()) << second.GetStatus();
    EXPECT_EQ(second->kubeconfig, "/b");
    EXPECT_EQ(second->context, "dev");

    const char* dangling[] = {"op", "--context"};
    EXPECT_TRUE(IsBadRequest(ParseConfigFlags(2, dangling).GetStatus()));
}

}  // namespace
}  // namespace ctrl::rest
