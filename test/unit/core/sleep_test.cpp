#include "ctrl/core/sleep.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
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

// Sleeps of 0 to 200 us on an io_context two threads run, so a wait started on one thread often
// ends on the other: each ends once, OK. (The start of a wait must not touch the coroutine frame
// after the wait began: the other thread may already have ended it. ThreadSanitizer saw that in
// the controller integration tests; this test exercises the path, it rarely loses that race.)
Task<void> ShortSleeps(int count, std::atomic<int>& ended, std::atomic<int>& failed) {
    for (int n = 0; n < count; ++n)
        if (!(co_await SleepFor(Context::Background(), std::chrono::microseconds(n % 3 * 100))).Ok())
            failed.fetch_add(1);
    ended.fetch_add(1);
}

TEST(SleepTest, ManyShortSleepsOnTwoThreadsEachEndOnce) {
    boost::asio::io_context io;
    constexpr int kSleepers = 200;
    constexpr int kSleepsEach = 20;
    std::atomic<int> ended{0};
    std::atomic<int> failed{0};
    for (int i = 0; i < kSleepers; ++i)
        boost::asio::co_spawn(io, ShortSleeps(kSleepsEach, ended, failed), boost::asio::detached);
    std::thread second([&io] { io.run(); });
    io.run();
    second.join();
    EXPECT_EQ(ended.load(), kSleepers);
    EXPECT_EQ(failed.load(), 0);
}

}  // namespace
}  // namespace ctrl
