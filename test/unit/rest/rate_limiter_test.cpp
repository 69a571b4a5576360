#include "ctrl/rest/rate_limiter.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include "ctrl/core/run_sync.hpp"
#include "test/support/eventually.hpp"
#include "test/support/manual_clock.hpp"

namespace ctrl::rest {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::ManualClock;
using ctrl::testing::TestContext;

TEST(RateLimiterTest, DisabledNeverWaits) {
    RateLimiter limiter(0, 0);
    EXPECT_FALSE(limiter.Enabled());
    for (int i = 0; i < 1000; ++i)
        EXPECT_TRUE(limiter.TryAccept());
}

TEST(RateLimiterTest, BurstThenQps) {
    RateLimiter limiter(10, 3);
    EXPECT_TRUE(limiter.TryAccept());
    EXPECT_TRUE(limiter.TryAccept());
    EXPECT_TRUE(limiter.TryAccept());
    EXPECT_FALSE(limiter.TryAccept());
}

TEST(RateLimiterTest, ReservationsQueueAtOneOverQps) {
    ManualClock clock;
    RateLimiter limiter(100, 1, clock.Function());
    const auto now = clock.Now();
    EXPECT_EQ(limiter.Reserve(), now);
    EXPECT_EQ(limiter.Reserve(), now + 10ms);
    EXPECT_EQ(limiter.Reserve(), now + 20ms);
    clock.Advance(20ms);  // the debt is repaid
    EXPECT_EQ(limiter.Reserve(), now + 30ms);
}

TEST(RateLimiterTest, TokensRefillAtQpsUpToTheBurst) {
    ManualClock clock;
    RateLimiter limiter(10, 2, clock.Function());
    EXPECT_TRUE(limiter.TryAccept());
    EXPECT_TRUE(limiter.TryAccept());
    EXPECT_FALSE(limiter.TryAccept());
    clock.Advance(100ms);
    EXPECT_TRUE(limiter.TryAccept());
    EXPECT_FALSE(limiter.TryAccept());
    clock.Advance(1h);
    EXPECT_TRUE(limiter.TryAccept());
    EXPECT_TRUE(limiter.TryAccept());
    EXPECT_FALSE(limiter.TryAccept());
}

TEST(RateLimiterTest, WaitSleepsOnATimerUntilItsTokenIsDue) {
    boost::asio::io_context io;
    RateLimiter limiter(50, 1);  // 20 ms per token
    auto first = RunSync(io, limiter.Wait(TestContext()));
    ASSERT_TRUE(first.Ok());
    EXPECT_EQ(*first, RateLimiter::Clock::duration::zero());
    auto second = RunSync(io, limiter.Wait(TestContext()));
    ASSERT_TRUE(second.Ok());
    EXPECT_GE(*second, 15ms);
}

TEST(RateLimiterTest, WaitEndsWithTheContextAndGivesTheTokenBack) {
    boost::asio::io_context io;
    ManualClock clock;                                     // stands still
    RateLimiter limiter(1.0 / 1024, 1, clock.Function());  // a token every 1024 s
    ASSERT_TRUE(limiter.TryAccept());
    auto waited = RunSync(io, limiter.Wait(Context::WithTimeout(Context::Background(), 20ms)));
    ASSERT_FALSE(waited.Ok());
    EXPECT_TRUE(IsTimeout(waited.GetStatus()));
    // The abandoned reservation was returned: the next token is due one interval after the
    // first, not two.
    EXPECT_EQ(limiter.Reserve(), clock.Now() + 1024s);
}

}  // namespace
}  // namespace ctrl::rest
