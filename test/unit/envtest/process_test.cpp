// Waiting for child processes: ChildProcess::WaitForExit and Stop, and RunCommand's wait for a
// command that closed its output, are woken by the child's exit (a pidfd), and a deadline still ends
// them when it does not exit.

#include "ctrl/envtest/process.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "ctrl/envtest/command.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::envtest {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::Eventually;
using ::testing::HasSubstr;

class ProcessTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ =
            std::filesystem::temp_directory_path() / ("ctrl-process-test-" + std::to_string(::getpid()) + "-" +
                                                      ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(dir_);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    std::string Log() const { return (dir_ / "child.log").string(); }

    std::filesystem::path dir_;
};

TEST_F(ProcessTest, WaitForExitReturnsWhenTheChildExitsAndReapsIt) {
    StatusOr<ChildProcess> child = ChildProcess::Start({"sh", "-c", "read line; exit 3"}, Log());
    ASSERT_TRUE(child.Ok()) << child.GetStatus();
    // stdin is /dev/null: `read` fails at once and the shell exits 3.
    EXPECT_TRUE(child->WaitForExit(std::chrono::steady_clock::now() + ctrl::testing::kTestWait));
    EXPECT_EQ(child->Pid(), 0) << "reaped";
    EXPECT_EQ(child->ExitDescription(), "exited with code 3");
}

TEST_F(ProcessTest, WaitForExitEndsAtItsDeadlineWhileTheChildRuns) {
    StatusOr<ChildProcess> child = ChildProcess::Start({"sleep", "30"}, Log());
    ASSERT_TRUE(child.Ok()) << child.GetStatus();
    EXPECT_FALSE(child->WaitForExit(std::chrono::steady_clock::now() + 50ms));
    EXPECT_TRUE(child->Running());
    EXPECT_EQ(child->Stop(ctrl::testing::kTestWait), "killed by signal 15 (Terminated)");
}

TEST_F(ProcessTest, StopKillsAChildThatIgnoresSigtermOnceTheGracePasses) {
    StatusOr<ChildProcess> child = ChildProcess::Start({"sh", "-c", "trap '' TERM; echo ready; exec sleep 30"}, Log());
    ASSERT_TRUE(child.Ok()) << child.GetStatus();
    ASSERT_TRUE(Eventually([&] { return TailOfFile(Log(), 1).find("ready") != std::string::npos; }));
    const std::string ended = child->Stop(100ms);
    EXPECT_THAT(ended, HasSubstr("killed by signal 9"));
    EXPECT_THAT(ended, HasSubstr("(SIGKILL after 100 ms of SIGTERM)"));
}

TEST_F(ProcessTest, RunCommandWaitsForACommandThatClosedItsOutput) {
    StatusOr<CommandResult> result =
        RunCommand({.argv = {"sh", "-c", "echo out; exec >/dev/null 2>&1; sleep 0.2; exit 4"}});
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(result->exit_code, 4);
    EXPECT_EQ(result->out, "out\n");
}

TEST_F(ProcessTest, RunCommandKillsACommandPastItsTimeout) {
    StatusOr<CommandResult> result =
        RunCommand({.argv = {"sh", "-c", "exec >/dev/null 2>&1; exec sleep 30"}, .timeout = 100ms});
    ASSERT_FALSE(result.Ok());
    EXPECT_TRUE(IsTimeout(result.GetStatus())) << result.GetStatus();
}

}  // namespace
}  // namespace ctrl::envtest
