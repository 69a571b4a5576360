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

TEST(OperatorFlagsTest, WebhooksAreOffWithoutCertificates) {
    Argv args({"ctrl-operator", "--webhook-port", "9444"});
    StatusOr<OperatorFlags> flags = ParseOperatorFlags(args.argc(), args.argv());
    ASSERT_TRUE(flags.Ok()) << flags.GetStatus();
    EXPECT_FALSE(ServesWebhooks(*flags));
    EXPECT_EQ(flags->webhook_port, 9444);

    Argv files({"ctrl-operator", "--webhook-cert-path=/certs"});
    flags = ParseOperatorFlags(files.argc(), files.argv());
    ASSERT_TRUE(flags.Ok()) << flags.GetStatus();
    EXPECT_TRUE(ServesWebhooks(*flags));
    EXPECT_EQ(flags->webhook_cert_path, "/certs");
    EXPECT_EQ(flags->webhook_cert_secret_name, "");
}

TEST(OperatorFlagsTest, ASecretTurnsSelfManagedCertificatesOn) {
    Argv args({"ctrl-operator", "--webhook-cert-secret=ctrl-system/ctrl-operator-webhook-certs", "--webhook-service",
               "ctrl-system/ctrl-operator-webhook", "--webhook-cert-ip", "127.0.0.1,::1", "-webhook-cert-ip=10.0.0.7"});
    StatusOr<OperatorFlags> flags = ParseOperatorFlags(args.argc(), args.argv());
    ASSERT_TRUE(flags.Ok()) << flags.GetStatus();
    EXPECT_TRUE(ServesWebhooks(*flags));
    EXPECT_EQ(flags->webhook_cert_secret_namespace, "ctrl-system");
    EXPECT_EQ(flags->webhook_cert_secret_name, "ctrl-operator-webhook-certs");
    EXPECT_EQ(flags->webhook_service_namespace, "ctrl-system");
    EXPECT_EQ(flags->webhook_service_name, "ctrl-operator-webhook");
    EXPECT_EQ(flags->webhook_cert_ips, (std::vector<std::string>{"127.0.0.1", "::1", "10.0.0.7"}));
    EXPECT_EQ(flags->webhook_cert_path, "");

    // An IP alone names the certificate too (an API server calling by URL on loopback).
    Argv by_ip({"ctrl-operator", "--webhook-cert-secret", "ctrl-system/certs.v1", "--webhook-cert-ip=127.0.0.1"});
    flags = ParseOperatorFlags(by_ip.argc(), by_ip.argv());
    ASSERT_TRUE(flags.Ok()) << flags.GetStatus();
    EXPECT_EQ(flags->webhook_cert_secret_name, "certs.v1");
    EXPECT_EQ(flags->webhook_service_name, "");
}

TEST(OperatorFlagsTest, BadWebhookFlagsAreNamedWithTheirValue) {
    const std::string secret = "--webhook-cert-secret=ctrl-system/certs";
    for (const auto& [argv, named] : std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>>{
             {{"--webhook-cert-secret=certs", "--webhook-cert-ip=127.0.0.1"}, {"--webhook-cert-secret", "\"certs\""}},
             {{"--webhook-cert-secret=a/b/c", "--webhook-cert-ip=127.0.0.1"}, {"--webhook-cert-secret", "\"a/b/c\""}},
             {{"--webhook-cert-secret=/certs", "--webhook-cert-ip=127.0.0.1"},
              {"--webhook-cert-secret", "\"/certs\"", "namespace"}},
             {{"--webhook-cert-secret=Ctrl/certs", "--webhook-cert-ip=127.0.0.1"}, {"--webhook-cert-secret", "Ctrl"}},
             {{"--webhook-cert-secret=ctrl-system/", "--webhook-cert-ip=127.0.0.1"},
              {"--webhook-cert-secret", "ctrl-system/", "object"}},
             {{secret, "--webhook-service=ctrl-system/web.hook"}, {"--webhook-service", "web.hook"}},
             {{secret, "--webhook-service", "svc"}, {"--webhook-service", "\"svc\""}},
             {{secret, "--webhook-cert-ip=localhost"}, {"--webhook-cert-ip", "\"localhost\""}},
             {{secret, "--webhook-cert-ip=127.0.0.1,300.1.1.1"}, {"--webhook-cert-ip", "\"300.1.1.1\""}},
             {{secret, "--webhook-cert-ip=,"}, {"--webhook-cert-ip"}},
             {{secret, "--webhook-cert-ip"}, {"--webhook-cert-ip", "needs a value"}},
             {{secret}, {"--webhook-cert-secret", "--webhook-service", "--webhook-cert-ip"}},
             {{secret, "--webhook-cert-ip=127.0.0.1", "--webhook-cert-path=/certs"},
              {"--webhook-cert-path", "--webhook-cert-secret"}},
             {{"--webhook-service=ctrl-system/hook"}, {"--webhook-service", "--webhook-cert-secret"}},
             {{"--webhook-cert-path=/certs", "--webhook-cert-ip=127.0.0.1"},
              {"--webhook-cert-ip", "--webhook-cert-secret"}},
         }) {
        std::vector<std::string> command = {"ctrl-operator"};
        command.insert(command.end(), argv.begin(), argv.end());
        Argv args(command);
        StatusOr<OperatorFlags> flags = ParseOperatorFlags(args.argc(), args.argv());
        ASSERT_FALSE(flags.Ok()) << ::testing::PrintToString(argv);
        EXPECT_TRUE(IsBadRequest(flags.GetStatus())) << flags.GetStatus();
        for (const std::string& part : named)
            EXPECT_THAT(flags.GetStatus().Message(), ::testing::HasSubstr(part)) << ::testing::PrintToString(argv);
    }
}

TEST(OperatorFlagsTest, UsageListsTheOperatorsAndTheManagersFlags) {
    const std::string usage = OperatorUsage();
    for (const char* flag : {"--watch-namespaces", "--context", "--metrics-cert-path", "--kubeconfig", "--leader-elect",
                             "--metrics-secure", "--health-probe-bind-address", kLeaderElectionId,
                             "--webhook-cert-secret", "--webhook-service", "--webhook-cert-ip", "--webhook-cert-path",
                             "ctrl-operator-sgp-rules", "ctrl-operator-sgp-defaults"})
        EXPECT_THAT(usage, ::testing::HasSubstr(flag));
}

}  // namespace
}  // namespace ctrl::op
