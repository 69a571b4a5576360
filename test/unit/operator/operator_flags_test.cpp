#include "controllers/operator/operator_flags.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test/support/argv.hpp"

namespace ctrl::op {
namespace {

using ctrl::testing::Argv;

TEST(OperatorFlagsTest, DefaultsWatchEveryNamespaceUnderTheOperatorsLease) {
    Argv args({"ctrl-operator"});
    StatusOr<OperatorFlags> flags = ParseOperatorFlags(args.argc(), args.argv());
    ASSERT_TRUE(flags.Ok()) << flags.GetStatus();
    EXPECT_TRUE(flags->watch_namespaces.empty());
    EXPECT_EQ(flags->manager.leader_election_id, kLeaderElectionId);
    EXPECT_FALSE(flags->manager.leader_elect);
    EXPECT_FALSE(flags->metrics_secure_given) << "the default then depends on where it runs";
    EXPECT_EQ(flags->manager.metrics_bind_address, ":8080");
    EXPECT_TRUE(flags->manager.enable_warmup) << "the sample's replicas are warm standbys";
}

TEST(OperatorFlagsTest, WarmupTurnsOffWithAFlag) {
    Argv args({"ctrl-operator", "--leader-elect", "--enable-warmup=false"});
    StatusOr<OperatorFlags> flags = ParseOperatorFlags(args.argc(), args.argv());
    ASSERT_TRUE(flags.Ok()) << flags.GetStatus();
    EXPECT_FALSE(flags->manager.enable_warmup);
    EXPECT_THAT(OperatorUsage(), ::testing::HasSubstr("--enable-warmup"));
}

TEST(OperatorFlagsTest, ReadsItsOwnFlagsBesideTheManagers) {
    Argv args({"ctrl-operator", "--watch-namespaces=a,,b", "--context", "kind-x", "--leader-elect",
               "-metrics-secure=false", "--metrics-bind-address", ":8443"});
    StatusOr<OperatorFlags> flags = ParseOperatorFlags(args.argc(), args.argv());
    ASSERT_TRUE(flags.Ok()) << flags.GetStatus();
    EXPECT_EQ(flags->watch_namespaces, (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(flags->context, "kind-x");
    EXPECT_TRUE(flags->manager.leader_elect);
    EXPECT_TRUE(flags->metrics_secure_given);
    EXPECT_FALSE(flags->manager.metrics_secure);
    EXPECT_EQ(flags->manager.metrics_bind_address, ":8443");
    EXPECT_EQ(flags->metrics_cert_path, "");
    EXPECT_EQ(flags->metrics_cert_name, "tls.crt");

    Argv separate({"ctrl-operator", "--watch-namespaces", "team-a", "--metrics-secure", "--metrics-cert-path", "/certs",
                   "--metrics-cert-key=key.pem"});
    flags = ParseOperatorFlags(separate.argc(), separate.argv());
    ASSERT_TRUE(flags.Ok()) << flags.GetStatus();
    EXPECT_EQ(flags->metrics_cert_path, "/certs");
    EXPECT_EQ(flags->metrics_cert_name, "tls.crt");
    EXPECT_EQ(flags->metrics_cert_key, "key.pem");
    EXPECT_EQ(flags->watch_namespaces, (std::vector<std::string>{"team-a"}));
    EXPECT_TRUE(flags->metrics_secure_given);
    EXPECT_TRUE(flags->manager.metrics_secure);
}

TEST(OperatorFlagsTest, BadArgumentsAreNamed) {
    for (const auto& [argv, named] : std::vector<std::pair<std::vector<std::string>, std::string>>{
             {{"ctrl-operator", "--bogus"}, "--bogus"},
             {{"ctrl-operator", "stray"}, "stray"},
             {{"ctrl-operator", "--watch-namespaces"}, "--watch-namespaces"},
             {{"ctrl-operator", "--watch-namespaces=,"}, "--watch-namespaces"},
             {{"ctrl-operator", "--leader-elect=maybe"}, "--leader-elect"},
         }) {
        Argv args(argv);
        StatusOr<OperatorFlags> flags = ParseOperatorFlags(args.argc(), args.argv());
        ASSERT_FALSE(flags.Ok()) << argv.back();
        EXPECT_TRUE(IsBadRequest(flags.GetStatus())) << flags.GetStatus();
        EXPECT_THAT(flags.GetStatus().Message(), ::testing::HasSubstr(named));
    }
}

TEST(OperatorFlagsTest, UsageListsTheOperatorsAndTheManagersFlags) {
    const std::string usage = OperatorUsage();
    for (const char* flag : {"--watch-namespaces", "--context", "--metrics-cert-path", "--kubeconfig", "--leader-elect",
                             "--metrics-secure", "--health-probe-bind-address", kLeaderElectionId})
        EXPECT_THAT(usage, ::testing::HasSubstr(flag));
}

}  // namespace
}  // namespace ctrl::op
