#include "ctrl/core/sleep.hpp"

#include <gtest/gtest.h>

#include <thread>

#include <boost/asio/io_context.hpp>

#include "ctrl/core/run_sync.hpp"
#include "test/support/eventually.hpp"

namespace ctrl {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using testing::TestContext;

TEST(SleepTest, SleepsAtLeastTheDuration) {
    boost::asio::io_context io;
    const auto start = Clock::now();
    EXPECT_TRUE(RunSync(io, SleepFor(TestContext(), 20ms)).Ok());
    EXPECT_GE(Clock::now() - start, 20ms);
}

TEST(SleepTest, TheContextDeadlineEndsItWithTimeout) {
    boost::asio::io_context io;
    Status status = RunSync(io, SleepFor(Context::WithTimeout(Context::Background(), 20ms), 10s));
    EXPECT_TRUE(IsTimeout(status));
}

// The sleep would last a day and its context ends with the test's wait: ending before that
// deadline means the cancel woke it.
TEST(SleepTest, CancelFromAnotherThreadWakesItWithTheReason) {
    boost::asio::io_context io;
    const Context test_wait = TestContext();
    Context ctx = Context::WithCancel(test_wait);
    std::thread canceller([ctx] {
        std::this_thread::sleep_for(20ms);
        ctx.Cancel(CancelledError("manager stopping"));
    });
    Status status = RunSync(io, SleepFor(ctx, 24h));
    canceller.join();
    EXPECT_TRUE(IsCancelled(status));
    EXPECT_EQ(status.Message(), "manager stopping");
    EXPECT_TRUE(test_wait.Err().Ok()) << "the sleep lasted until the test's deadline";
}

TEST(SleepTest, AlreadyCancelledReturnsAtOnce) {
    boost::asio::io_context io;
    Context ctx = Context::WithCancel(Context::Background());
    ctx.Cancel();
    EXPECT_TRUE(IsCancelled(RunSync(io, SleepFor(ctx, 10s))));
}

}  // namespace
}  // namespace ctrl
