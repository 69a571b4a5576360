#include "runtime/rest/rate_limiter.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include "runtime/core/run_sync.hpp"

namespace ctrl::rest {
namespace {

using namespace std::chrono_literals;

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
    RateLimiter limiter(100, 1);
    const auto now = RateLimiter::Clock::now();
    EXPECT_LE(limiter.Reserve(), now + 1ms);
    const auto second = limiter.Reserve();
    const auto third = limiter.Reserve();
    EXPECT_GE(second - now, 9ms);
    EXPECT_GE(third - second, 9ms);
    EXPECT_LE(third - second, 11ms);
}

TEST(RateLimiterTest, WaitSleepsOnATimerUntilItsTokenIsDue) {
    boost::asio::io_context io;
    RateLimiter limiter(50, 1);  // 20 ms per token
    auto first = RunSync(io, limiter.Wait(Context::Background()));
    ASSERT_TRUE(first.Ok());
    EXPECT_EQ(*first, RateLimiter::Clock::duration::zero());
    auto second = RunSync(io, limiter.Wait(Context::Background()));
    ASSERT_TRUE(second.Ok());
    EXPECT_GE(*second, 15ms);
}

TEST(RateLimiterTest, WaitEndsWithTheContextAndGivesTheTokenBack) {
    boost::asio::io_context io;
    RateLimiter limiter(1, 1);
    ASSERT_TRUE(limiter.TryAccept());
    auto waited = RunSync(io, limiter.Wait(Context::WithTimeout(Context::Background(), 20ms)));
    ASSERT_FALSE(waited.Ok());
    EXPECT_TRUE(IsTimeout(waited.GetStatus()));
    // The abandoned reservation was returned: the next token is due ~1 s after the first, not 2 s.
    EXPECT_LE(limiter.Reserve() - RateLimiter::Clock::now(), 1100ms);
}

}  // namespace
}  // namespace ctrl::rest
