#include "ctrl/manager/flags.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "test/support/argv.hpp"

namespace ctrl::manager {
namespace {

using ctrl::testing::Argv;

TEST(FlagsTest, DefaultsAreControllerRuntimes) {
    Argv args({"op"});
    StatusOr<Flags> flags = ParseFlags(args.argc(), args.argv());
    ASSERT_TRUE(flags.Ok()) << flags.GetStatus();
    EXPECT_EQ(flags->metrics_bind_address, ":8080");
    EXPECT_EQ(flags->health_probe_bind_address, ":8081");
    EXPECT_FALSE(flags->leader_elect);
    EXPECT_FALSE(flags->metrics_secure);
    EXPECT_FALSE(flags->enable_warmup) << "off in the library, as controller-runtime's EnableWarmup";
    EXPECT_EQ(flags->log.verbosity, 0);
}

TEST(FlagsTest, ParsesEveryFormAndLeavesOtherArguments) {
    Argv args({"op", "--kubeconfig", "/k", "-metrics-bind-address=:9090", "--leader-elect", "--program-flag=1",
               "--leader-election-id=sgp", "--leader-election-namespace", "ops", "--metrics-secure=false",
               "--zap-log-level=debug", "--health-probe-bind-address=0", "--enable-warmup", "positional"});
    StatusOr<Flags> flags = ParseFlags(args.argc(), args.argv());
    ASSERT_TRUE(flags.Ok()) << flags.GetStatus();
    EXPECT_EQ(flags->kubeconfig, "/k");
    EXPECT_EQ(flags->metrics_bind_address, ":9090");
    EXPECT_EQ(flags->health_probe_bind_address, "0");
    EXPECT_TRUE(flags->leader_elect);
    EXPECT_EQ(flags->leader_election_id, "sgp");
    EXPECT_EQ(flags->leader_election_namespace, "ops");
    EXPECT_FALSE(flags->metrics_secure);
    EXPECT_EQ(flags->log.verbosity, 1);
    EXPECT_EQ(args.Left(), (std::vector<std::string>{"--program-flag=1", "positional"}));

    Options options;
    ApplyFlags(*flags, options);
    log::Configure(log::Options{});
    EXPECT_EQ(options.metrics.bind_address, ":9090");
    EXPECT_TRUE(options.leader_election.enabled);
    EXPECT_EQ(options.leader_election.id, "sgp");
    EXPECT_EQ(options.leader_election.namespace_name, "ops");
    EXPECT_EQ(options.controller.enable_warmup, std::optional<bool>(true));
}

TEST(FlagsTest, BadValuesNameTheFlag) {
    Argv missing({"op", "--leader-election-id"});
    StatusOr<Flags> flags = ParseFlags(missing.argc(), missing.argv());
    ASSERT_FALSE(flags.Ok());
    EXPECT_THAT(flags.GetStatus().Message(), ::testing::HasSubstr("--leader-election-id"));
    Argv bad_bool({"op", "--leader-elect=maybe"});
    flags = ParseFlags(bad_bool.argc(), bad_bool.argv());
    ASSERT_FALSE(flags.Ok());
    EXPECT_THAT(flags.GetStatus().Message(), ::testing::HasSubstr("--leader-elect"));
}

TEST(FlagsTest, UsageListsEveryFlagWithItsDefault) {
    Flags defaults;
    defaults.leader_election_id = "sgp-watcher";
    const std::string usage = FlagsUsage(defaults);
    for (const char* name : {"--kubeconfig", "--metrics-bind-address", "--health-probe-bind-address", "--leader-elect",
                             "--leader-election-id", "--leader-election-namespace", "--metrics-secure",
                             "--enable-warmup", "--zap-log-level", "--help"})
        EXPECT_THAT(usage, ::testing::HasSubstr(name));
    EXPECT_THAT(usage, ::testing::HasSubstr("\":8080\""));
    EXPECT_THAT(usage, ::testing::HasSubstr("\"sgp-watcher\""));
}

}  // namespace
}  // namespace ctrl::manager
