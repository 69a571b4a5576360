#include <chrono>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ctrl/workqueue/bucket_rate_limiter.hpp"
#include "ctrl/workqueue/default_rate_limiter.hpp"
#include "ctrl/workqueue/item_exponential_failure_rate_limiter.hpp"
#include "ctrl/workqueue/max_of_rate_limiter.hpp"
#include "ctrl/workqueue/token_bucket.hpp"
#include "test/support/manual_clock.hpp"

namespace ctrl::workqueue {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::ManualClock;
using std::chrono::nanoseconds;

TEST(ItemExponentialFailureRateLimiter, DoublesFromBaseUpToMax) {
    ItemExponentialFailureRateLimiter<std::string> limiter(1ms, 1s);
    const std::vector<nanoseconds> want = {1ms, 2ms, 4ms, 8ms, 16ms, 32ms, 64ms, 128ms, 256ms, 512ms, 1s, 1s};
    for (const nanoseconds delay : want)
        EXPECT_EQ(limiter.When("a"), delay);
    EXPECT_EQ(limiter.NumRequeues("a"), 12);
}

TEST(ItemExponentialFailureRateLimiter, ForgetStartsOver) {
    ItemExponentialFailureRateLimiter<std::string> limiter(1ms, 1s);
    EXPECT_EQ(limiter.When("a"), 1ms);
    EXPECT_EQ(limiter.When("a"), 2ms);
    limiter.Forget("a");
    EXPECT_EQ(limiter.NumRequeues("a"), 0);
    EXPECT_EQ(limiter.When("a"), 1ms);
    EXPECT_EQ(limiter.NumRequeues("a"), 1);
}

TEST(ItemExponentialFailureRateLimiter, ItemsBackOffIndependently) {
    ItemExponentialFailureRateLimiter<int> limiter(1ms, 1s);
    EXPECT_EQ(limiter.When(1), 1ms);
    EXPECT_EQ(limiter.When(1), 2ms);
    EXPECT_EQ(limiter.When(2), 1ms);
    EXPECT_EQ(limiter.When(1), 4ms);
    EXPECT_EQ(limiter.NumRequeues(1), 3);
    EXPECT_EQ(limiter.NumRequeues(2), 1);
    EXPECT_EQ(limiter.NumRequeues(3), 0);
}

TEST(ItemExponentialFailureRateLimiter, ControllerDefaultsReachMaxOnTheNineteenthFailure) {
    ItemExponentialFailureRateLimiter<int> limiter(kDefaultBaseDelay, kDefaultMaxDelay);
    nanoseconds want = 5ms;
    for (int failure = 1; failure <= 18; ++failure, want *= 2)
        EXPECT_EQ(limiter.When(0), want) << "failure " << failure;
    EXPECT_EQ(want, 1310720ms);  // past the max: 5 ms * 2^18
    EXPECT_EQ(limiter.When(0), 1000s);
}

TEST(ItemExponentialFailureRateLimiter, HugeExponentsSaturateAtMax) {
    ItemExponentialFailureRateLimiter<int> limiter(1ns, nanoseconds(std::numeric_limits<int64_t>::max()));
    nanoseconds last{};
    for (int i = 0; i < 200; ++i)
        last = limiter.When(0);
    EXPECT_EQ(last, nanoseconds(std::numeric_limits<int64_t>::max()));
}

TEST(TokenBucket, GivesTheBurstAtOnceThenOneTokenPerInterval) {
    TokenBucket bucket(10, 100);
    const auto now = TokenBucket::Clock::now();
    for (int i = 0; i < 100; ++i)
        EXPECT_EQ(bucket.ReserveAt(now), 0ns) << "reservation " << i;
    EXPECT_EQ(bucket.ReserveAt(now), 100ms);
    EXPECT_EQ(bucket.ReserveAt(now), 200ms);
    EXPECT_EQ(bucket.ReserveAt(now), 300ms);
}

TEST(TokenBucket, RefillsAtTheRate) {
    TokenBucket bucket(10, 100);
    const auto start = TokenBucket::Clock::now();
    for (int i = 0; i < 100; ++i)
        ASSERT_EQ(bucket.ReserveAt(start), 0ns);
    const auto later = start + 1s;  // ten tokens
    for (int i = 0; i < 10; ++i)
        EXPECT_EQ(bucket.ReserveAt(later), 0ns) << "reservation " << i;
    EXPECT_EQ(bucket.ReserveAt(later), 100ms);
}

TEST(TokenBucket, RepaysDebtBeforeGivingTokens) {
    TokenBucket bucket(10, 100);
    const auto start = TokenBucket::Clock::now();
    for (int i = 0; i < 103; ++i)
        (void)bucket.ReserveAt(start);  // three in debt
    EXPECT_EQ(bucket.ReserveAt(start + 200ms), 200ms);
}

TEST(TokenBucket, NeverHoldsMoreThanTheBurst) {
    TokenBucket bucket(10, 5);
    const auto start = TokenBucket::Clock::now();
    (void)bucket.ReserveAt(start);
    const auto much_later = start + 1h;
    for (int i = 0; i < 5; ++i)
        EXPECT_EQ(bucket.ReserveAt(much_later), 0ns);
    EXPECT_EQ(bucket.ReserveAt(much_later), 100ms);
}

TEST(TokenBucket, AnEarlierTimeCountsAsTheLastOne) {
    TokenBucket bucket(1, 1);
    const auto start = TokenBucket::Clock::now();
    EXPECT_EQ(bucket.ReserveAt(start), 0ns);
    EXPECT_EQ(bucket.ReserveAt(start - 10s), 1s);
}

TEST(TokenBucket, ReserveReadsTheInjectedClock) {
    ManualClock clock;
    TokenBucket bucket(4, 1, clock.Function());
    EXPECT_EQ(bucket.Reserve(), 0ns);
    EXPECT_EQ(bucket.Reserve(), 250ms);
    clock.Advance(125ms);  // half a token of the debt repaid
    EXPECT_EQ(bucket.Reserve(), 375ms);
}

TEST(TokenBucket, InfiniteRateNeverWaits) {
    TokenBucket bucket(std::numeric_limits<double>::infinity(), 1);
    for (int i = 0; i < 1000; ++i)
        EXPECT_EQ(bucket.Reserve(), 0ns);
}

TEST(BucketRateLimiter, AllowsTheBurstThenPaces) {
    ManualClock clock;
    BucketRateLimiter<std::string> limiter(10, 100, clock.Function());
    for (int i = 0; i < 100; ++i)
        EXPECT_EQ(limiter.When("item-" + std::to_string(i)), 0ns);
    EXPECT_EQ(limiter.When("one more"), 100ms);
    EXPECT_EQ(limiter.When("and another"), 200ms);
    clock.Advance(250ms);
    EXPECT_EQ(limiter.When("later"), 50ms);
    EXPECT_EQ(limiter.NumRequeues("one more"), 0);
    limiter.Forget("one more");
}

// A limiter that answers from a script and records what it was asked.
class ScriptedLimiter final : public RateLimiter<std::string> {
  public:
    explicit ScriptedLimiter(nanoseconds delay, int requeues) : delay_(delay), requeues_(requeues) {}
    nanoseconds When(const std::string&) override {
        ++whens;
        return delay_;
    }
    void Forget(const std::string&) override { ++forgets; }
    int NumRequeues(const std::string&) const override { return requeues_; }

    int whens = 0;
    int forgets = 0;

  private:
    nanoseconds delay_;
    int requeues_;
};

TEST(MaxOfRateLimiter, AsksEveryLimiterAndTakesTheLongestWait) {
    auto a = std::make_shared<ScriptedLimiter>(10ms, 3);
    auto b = std::make_shared<ScriptedLimiter>(30ms, 1);
    auto c = std::make_shared<ScriptedLimiter>(20ms, 7);
    MaxOfRateLimiter<std::string> limiter({a, b, c});
    EXPECT_EQ(limiter.When("x"), 30ms);
    EXPECT_EQ(a->whens + b->whens + c->whens, 3);
    EXPECT_EQ(limiter.NumRequeues("x"), 7);
    limiter.Forget("x");
    EXPECT_EQ(a->forgets + b->forgets + c->forgets, 3);
}

TEST(MaxOfRateLimiter, CombinesExponentialLimiters) {
    MaxOfRateLimiter<std::string> limiter({
        std::make_shared<ItemExponentialFailureRateLimiter<std::string>>(1ms, 1s),
        std::make_shared<ItemExponentialFailureRateLimiter<std::string>>(10ms, 100ms),
    });
    EXPECT_EQ(limiter.When("a"), 10ms);
    EXPECT_EQ(limiter.When("a"), 20ms);
    EXPECT_EQ(limiter.When("a"), 40ms);
    EXPECT_EQ(limiter.When("a"), 80ms);
    EXPECT_EQ(limiter.When("a"), 100ms);
    EXPECT_EQ(limiter.When("a"), 100ms);
    EXPECT_EQ(limiter.When("a"), 100ms);
    EXPECT_EQ(limiter.When("a"), 128ms);  // the first one's 2^7 ms passes the second one's cap
    EXPECT_EQ(limiter.NumRequeues("a"), 8);
    limiter.Forget("a");
    EXPECT_EQ(limiter.NumRequeues("a"), 0);
    EXPECT_EQ(limiter.When("a"), 10ms);
}

TEST(DefaultControllerRateLimiter, BacksOffPerItemFromFiveMilliseconds) {
    auto limiter = DefaultControllerRateLimiter<std::string>();
    EXPECT_EQ(limiter->When("a"), 5ms);
    EXPECT_EQ(limiter->When("a"), 10ms);
    EXPECT_EQ(limiter->When("a"), 20ms);
    EXPECT_EQ(limiter->When("b"), 5ms);
    EXPECT_EQ(limiter->NumRequeues("a"), 3);
    limiter->Forget("a");
    EXPECT_EQ(limiter->NumRequeues("a"), 0);
    EXPECT_EQ(limiter->When("a"), 5ms);
}

TEST(DefaultControllerRateLimiter, PacesAllRetriesAtTenPerSecondAfterABurstOfHundred) {
    ManualClock clock;
    auto limiter = DefaultControllerRateLimiter<int>(clock.Function());
    for (int item = 0; item < 100; ++item)
        EXPECT_EQ(limiter->When(item), 5ms) << "item " << item;
    EXPECT_EQ(limiter->When(100), 100ms);
    EXPECT_EQ(limiter->When(101), 200ms);
    clock.Advance(1s);  // ten tokens: two repay the debt, eight are free
    for (int item = 102; item < 110; ++item)
        EXPECT_EQ(limiter->When(item), 5ms) << "item " << item;
    EXPECT_EQ(limiter->When(110), 100ms);
}

}  // namespace
}  // namespace ctrl::workqueue
