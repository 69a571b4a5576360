// Issue 14, acceptance 5: SIGTERM during 20 in-flight reconciles that each take 2 s — all finish, no
// new one starts, exit code 0; a second signal during the shutdown exits at once, non-zero.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <csignal>
#include <thread>

#include "test/integration/manager/process_fixture.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::manager {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::ChildProcess;
using ctrl::testing::Eventually;
using ctrl::testing::TailOfFile;

class GracefulShutdownTest : public ctrl::testing::ManagerProcessTest {};

const std::vector<std::string> kNoServers{
    "--metrics-bind-address=0", "--health-probe-bind-address=0", "--max-concurrent", "20", "--reconcile-seconds", "2"};

TEST_F(GracefulShutdownTest, SigtermLetsInFlightReconcilesFinishStartsNoNewOneAndExitsZero) {
    CreateConfigMaps(30);
    ChildProcess op = StartOperator(kNoServers, "operator");
    ASSERT_TRUE(Eventually([&] { return Lines(op, "reconcile-start ").size() >= 20; })) << TailOfFile(op.LogPath(), 30);
    ASSERT_EQ(kill(op.Pid(), SIGTERM), 0);
    ASSERT_TRUE(Eventually([&] { return !op.Running(); })) << TailOfFile(op.LogPath(), 30);
    EXPECT_EQ(op.ExitDescription(), "exited with code 0") << TailOfFile(op.LogPath(), 30);
    EXPECT_EQ(Lines(op, "reconcile-start ").size(), 20u) << "no reconcile starts after the signal";
    const std::vector<std::string> ends = Lines(op, "reconcile-end ");
    EXPECT_EQ(ends.size(), 20u) << TailOfFile(op.LogPath(), 40);
    for (const std::string& end : ends)
        EXPECT_THAT(end, ::testing::Not(::testing::HasSubstr("Cancelled"))) << "finished with a live context";
    EXPECT_EQ(Lines(op, "exit OK").size(), 1u);
}

TEST_F(GracefulShutdownTest, ASecondSignalExitsAtOnceWithAnError) {
    CreateConfigMaps(20);
    ChildProcess op = StartOperator(kNoServers, "operator");
    ASSERT_TRUE(Eventually([&] { return Lines(op, "reconcile-start ").size() >= 20; })) << TailOfFile(op.LogPath(), 30);
    ASSERT_EQ(kill(op.Pid(), SIGTERM), 0);
    std::this_thread::sleep_for(100ms);
    ASSERT_EQ(kill(op.Pid(), SIGTERM), 0);
    ASSERT_TRUE(Eventually([&] { return !op.Running(); })) << TailOfFile(op.LogPath(), 30);
    EXPECT_EQ(op.ExitDescription(), "exited with code 1");
    EXPECT_LT(Lines(op, "reconcile-end ").size(), 20u) << "it did not wait for the reconciles";
}

}  // namespace
}  // namespace ctrl::manager
