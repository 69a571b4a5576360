#include <algorithm>
#include <chrono>
#include <future>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "ctrl/workqueue/internal/delay_heap.hpp"
#include "ctrl/workqueue/queue.hpp"
#include "test/unit/workqueue/test_support.hpp"

namespace ctrl::workqueue {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using testing::IoThreads;
using testing::kQuiet;
using testing::kTestWait;
using testing::ReadyWithin;
using testing::ShutDownAtExit;

std::vector<std::string> PopAllDue(internal::DelayHeap<std::string>& heap, Clock::time_point now) {
    std::vector<std::string> out;
    heap.PopDue(now, [&](std::string&& item, int) { out.push_back(std::move(item)); });
    return out;
}

TEST(DelayHeap, PopsDueItemsInDeadlineOrderThenArrivalOrder) {
    internal::DelayHeap<std::string> heap;
    const auto t0 = Clock::now();
    heap.Push("c", t0 + 3s);
    heap.Push("a", t0 + 1s);
    heap.Push("b1", t0 + 2s);
    heap.Push("b2", t0 + 2s);
    heap.Push("d", t0 + 4s);
    EXPECT_EQ(heap.Size(), 5u);
    EXPECT_EQ(heap.NextDeadline(), t0 + 1s);
    EXPECT_TRUE(PopAllDue(heap, t0).empty());
    EXPECT_EQ(PopAllDue(heap, t0 + 3s), (std::vector<std::string>{"a", "b1", "b2", "c"}));
    EXPECT_EQ(heap.NextDeadline(), t0 + 4s);
    heap.Clear();
    EXPECT_TRUE(heap.Empty());
}

TEST(DelayHeap, AnItemWaitsOnceAtItsEarliestDeadline) {
    internal::DelayHeap<std::string> heap;
    const auto t0 = Clock::now();
    heap.Push("a", t0 + 5s);
    heap.Push("b", t0 + 3s);
    heap.Push("a", t0 + 1s);  // earlier: moves up
    heap.Push("b", t0 + 9s);  // later: ignored
    EXPECT_EQ(heap.Size(), 2u);
    EXPECT_EQ(PopAllDue(heap, t0 + 1s), (std::vector<std::string>{"a"}));
    EXPECT_EQ(PopAllDue(heap, t0 + 3s), (std::vector<std::string>{"b"}));
    EXPECT_TRUE(heap.Empty());
}

TEST(DelayHeap, StaysOrderedUnderRandomPushes) {
    internal::DelayHeap<int> heap;
    std::mt19937 rng(7);
    const auto t0 = Clock::now();
    std::vector<Clock::time_point> best(500, Clock::time_point::max());
    for (int i = 0; i < 5000; ++i) {
        const int item = static_cast<int>(rng() % 500);
        const auto deadline = t0 + std::chrono::microseconds(rng() % 1000000);
        heap.Push(item, deadline);
        best[item] = std::min(best[item], deadline);
    }
    Clock::time_point last = t0;
    std::size_t popped = 0;
    heap.PopDue(t0 + 2s, [&](int&& item, int) {
        EXPECT_GE(best[item], last);
        last = best[item];
        ++popped;
    });
    EXPECT_EQ(popped, 500u);
}

class DelayTest : public ::testing::Test {
  protected:
    IoThreads io_;
    Queue<std::string> queue_{io_.Executor()};
};

TEST_F(DelayTest, AddAfterAddsOnceTheDelayHasPassed) {
    const auto start = Clock::now();
    queue_.AddAfter("a", 200ms);
    EXPECT_EQ(queue_.Len(), 0u);
    auto got = std::async(std::launch::async, [this] { return queue_.Get(); });
    ShutDownAtExit guard(queue_);
    ASSERT_TRUE(ReadyWithin(got, kTestWait));
    EXPECT_GE(Clock::now() - start, 200ms);
    EXPECT_EQ(got.get(), "a");
}

TEST_F(DelayTest, NonPositiveDelaysAddAtOnce) {
    queue_.AddAfter("a", 0s);
    queue_.AddAfter("b", -1s);
    EXPECT_EQ(queue_.Len(), 2u);
}

// The later deadlines are an hour away: keys that come out within the test's wait came out at
// their earlier one.
TEST_F(DelayTest, AKeyWaitsForTheEarlierOfItsDeadlines) {
    queue_.AddAfter("a", 1h);
    queue_.AddAfter("a", 50ms);
    queue_.AddAfter("b", 50ms);
    queue_.AddAfter("b", 1h);
    auto first = std::async(std::launch::async, [this] { return queue_.Get(); });
    ShutDownAtExit guard(queue_);
    ASSERT_TRUE(ReadyWithin(first, kTestWait));
    EXPECT_EQ(first.get(), "a");
    ASSERT_TRUE(testing::Eventually([this] { return queue_.Len() == 1; }));
    EXPECT_EQ(queue_.Get(), "b");
}

TEST_F(DelayTest, ADelayedKeyBeingProcessedIsQueuedAtItsDone) {
    queue_.Add("a");
    ASSERT_EQ(queue_.Get(), "a");
    queue_.AddAfter("a", 20ms);
    std::this_thread::sleep_for(200ms);  // its deadline passes (or, on a loaded machine, is still to come)
    EXPECT_EQ(queue_.Len(), 0u);
    queue_.Done("a");
    EXPECT_TRUE(testing::Eventually([this] { return queue_.Len() == 1; }));
}

TEST_F(DelayTest, ShutDownDropsWaitingKeysAndRefusesNewOnes) {
    queue_.AddAfter("a", 50ms);
    queue_.ShutDown();
    queue_.AddAfter("b", 0s);
    queue_.AddAfter("c", 10ms);
    std::this_thread::sleep_for(200ms);
    EXPECT_EQ(queue_.Len(), 0u);
    EXPECT_EQ(queue_.Get(), std::nullopt);
}

// Acceptance 3: AddAfter keys come out in deadline order, never before their deadline, and all
// of them within the test's wait (how late each is depends on the machine's load, so it is not
// asserted). A key's deadline lies between the clock before and after its AddAfter call; two
// keys may come out in either order only if those windows overlap.
TEST_F(DelayTest, DelayedKeysComeOutInDeadlineOrderAndOnTime) {
    constexpr int kKeys = 200;
    std::vector<std::chrono::milliseconds> delays(kKeys);
    for (int i = 0; i < kKeys; ++i)
        delays[i] = std::chrono::milliseconds(1 + 3 * i);
    std::shuffle(delays.begin(), delays.end(), std::mt19937(42));

    struct Window {
        Clock::time_point earliest;
        Clock::time_point latest;
    };
    std::vector<Window> deadline(kKeys);
    std::vector<std::pair<int, Clock::time_point>> out;
    auto consumer = std::async(std::launch::async, [&] {
        while (static_cast<int>(out.size()) < kKeys) {
            std::optional<std::string> key = queue_.Get();
            if (!key)
                return;
            out.emplace_back(std::stoi(*key), Clock::now());
            queue_.Done(*key);
        }
    });
    ShutDownAtExit guard(queue_);
    for (int i = 0; i < kKeys; ++i) {
        const auto before = Clock::now();
        queue_.AddAfter(std::to_string(i), delays[i]);
        deadline[i] = {before + delays[i], Clock::now() + delays[i]};
    }
    ASSERT_TRUE(ReadyWithin(consumer, kTestWait));
    ASSERT_EQ(out.size(), static_cast<std::size_t>(kKeys));
    for (std::size_t n = 0; n < out.size(); ++n) {
        const auto [key, at] = out[n];
        EXPECT_GE(at, deadline[key].earliest) << "key " << key << " came out before its deadline";
        if (n > 0) {
            const int previous = out[n - 1].first;
            EXPECT_FALSE(deadline[key].latest < deadline[previous].earliest)
                << "key " << key << " came out after key " << previous << ", whose deadline is later";
        }
    }
}

// Scripted delays for AddRateLimited.
class FixedLimiter final : public RateLimiter<std::string> {
  public:
    explicit FixedLimiter(std::chrono::nanoseconds delay) : delay_(delay) {}
    std::chrono::nanoseconds When(const std::string&) override {
        ++failures_;
        return delay_;
    }
    void Forget(const std::string&) override { failures_ = 0; }
    int NumRequeues(const std::string&) const override { return failures_; }

  private:
    std::chrono::nanoseconds delay_;
    int failures_ = 0;
};

TEST(RateLimitedQueue, AddRateLimitedWaitsForTheLimitersDelay) {
    IoThreads io;
    Queue<std::string> queue(io.Executor(), {.rate_limiter = std::make_shared<FixedLimiter>(100ms)});
    const auto start = Clock::now();
    queue.AddRateLimited("a");
    EXPECT_EQ(queue.NumRequeues("a"), 1);
    EXPECT_EQ(queue.Len(), 0u);
    auto got = std::async(std::launch::async, [&queue] { return queue.Get(); });
    ShutDownAtExit guard(queue);
    ASSERT_TRUE(ReadyWithin(got, kTestWait));
    EXPECT_EQ(got.get(), "a");
    EXPECT_GE(Clock::now() - start, 100ms);
    queue.Forget("a");
    EXPECT_EQ(queue.NumRequeues("a"), 0);
}

TEST(RateLimitedQueue, UsesControllerRuntimesDefaultLimiter) {
    IoThreads io;
    Queue<std::string> queue(io.Executor());
    queue.AddRateLimited("a");  // 5 ms
    queue.AddRateLimited("a");  // 10 ms; "a" keeps the earlier deadline
    EXPECT_EQ(queue.NumRequeues("a"), 2);
    ASSERT_TRUE(testing::Eventually([&queue] { return queue.Len() == 1; }));
    queue.Forget("a");
    EXPECT_EQ(queue.NumRequeues("a"), 0);
}

}  // namespace
}  // namespace ctrl::workqueue
