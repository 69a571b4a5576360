// The priority queue: levels, raises and aging on KeySet with times the test chooses, and the
// queue's priorities through AddWithOptions, delays, requeues and its metrics.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ctrl/metrics/registry.hpp"
#include "ctrl/workqueue/internal/key_set.hpp"
#include "ctrl/workqueue/queue.hpp"
#include "test/unit/workqueue/test_support.hpp"

namespace ctrl::workqueue {
namespace {

using namespace std::chrono_literals;
using testing::Eventually;
using testing::IoThreads;
using Keys = internal::KeySet<std::string, std::hash<std::string>, std::equal_to<std::string>>;
using Clock = Keys::Clock;

// One priority point is worth 1 ms of waiting: LowPriority's head start is 100 ms.
Keys PriorityKeys() {
    return Keys(Keys::Ordering{true, std::chrono::milliseconds(1)});
}

auto At(Clock::time_point t) {
    return [t] { return t; };
}

Keys::Added AddAt(Keys& keys, const std::string& key, int priority, Clock::time_point t) {
    return keys.Add(key, Keys::HashOf(key), priority, At(t));
}

std::vector<std::string> TakeAll(Keys& keys, Clock::time_point now) {
    std::vector<std::string> taken;
    while (keys.HasQueued())
        taken.push_back(keys.Take(now).key);
    return taken;
}

TEST(PriorityKeySet, HandsOutHigherPrioritiesFirstAndFifoWithinOne) {
    Keys keys = PriorityKeys();
    const auto t0 = Clock::now();
    AddAt(keys, "low-1", kLowPriority, t0);
    AddAt(keys, "normal-1", 0, t0 + 1ms);
    AddAt(keys, "high", 10, t0 + 2ms);
    AddAt(keys, "low-2", kLowPriority, t0 + 3ms);
    AddAt(keys, "normal-2", 0, t0 + 4ms);
    EXPECT_EQ(TakeAll(keys, t0 + 5ms), (std::vector<std::string>{"high", "normal-1", "normal-2", "low-1", "low-2"}));
}

TEST(PriorityKeySet, AWaitingLowKeyGoesAheadOfNormalKeysQueuedLaterThanItsHeadStart) {
    Keys keys = PriorityKeys();
    const auto t0 = Clock::now();
    AddAt(keys, "old-low", kLowPriority, t0);  // ranked as if queued at t0 + 100 ms
    AddAt(keys, "early", 0, t0 + 99ms);
    AddAt(keys, "late", 0, t0 + 101ms);
    EXPECT_EQ(TakeAll(keys, t0 + 200ms), (std::vector<std::string>{"early", "old-low", "late"}));
}

TEST(PriorityKeySet, PrioritiesAgeAsIfClampedToAHundred) {
    Keys keys = PriorityKeys();
    const auto t0 = Clock::now();
    AddAt(keys, "waited", 0, t0);                // ranked t0
    AddAt(keys, "huge", 1'000'000, t0 + 101ms);  // ranked as 100: t0 + 1 ms
    AddAt(keys, "later-huge", 1'000'000, t0 + 250ms);
    EXPECT_EQ(TakeAll(keys, t0 + 300ms), (std::vector<std::string>{"waited", "huge", "later-huge"}));
}

TEST(PriorityKeySet, ARaiseMovesAWaitingKeyOnlyWhenItRanksEarlier) {
    Keys keys = PriorityKeys();
    const auto t0 = Clock::now();
    AddAt(keys, "a", kLowPriority, t0);
    AddAt(keys, "b", 0, t0 + 1ms);
    int from = 1;
    EXPECT_EQ(keys.Add(std::string("a"), Keys::HashOf("a"), 0, At(t0 + 2ms), &from), Keys::Added::kRaised);
    EXPECT_EQ(from, kLowPriority);
    EXPECT_EQ(AddAt(keys, "a", kLowPriority, t0 + 3ms), Keys::Added::kDuplicate);  // lower: kept
    const Keys::Handout first = keys.Take(t0 + 4ms);
    EXPECT_EQ(first.key, "b");
    const Keys::Handout second = keys.Take(t0 + 4ms);
    EXPECT_EQ(second.key, "a");
    EXPECT_EQ(second.priority, 0);
    EXPECT_EQ(second.level, 0);
    EXPECT_EQ(second.added, t0);  // the first add counts for its wait

    // A key that waited past its head start stays where it ranks better, but keeps the priority.
    AddAt(keys, "c", kLowPriority, t0);
    EXPECT_EQ(AddAt(keys, "c", 0, t0 + 150ms), Keys::Added::kDuplicate);
    const Keys::Handout c = keys.Take(t0 + 151ms);
    EXPECT_EQ(c.priority, 0);
    EXPECT_EQ(c.level, kLowPriority);
}

TEST(PriorityKeySet, AKeyAddedWhileProcessingIsRequeuedAtItsHighestPriority) {
    Keys keys = PriorityKeys();
    const auto t0 = Clock::now();
    AddAt(keys, "a", kLowPriority, t0);
    EXPECT_EQ(keys.Take(t0).key, "a");
    EXPECT_EQ(AddAt(keys, "a", kLowPriority, t0 + 1ms), Keys::Added::kDeferred);
    EXPECT_EQ(AddAt(keys, "a", 5, t0 + 2ms), Keys::Added::kDuplicate);
    AddAt(keys, "b", 0, t0 + 3ms);
    Clock::time_point started;
    int from = 0;
    int to = 0;
    EXPECT_EQ(keys.Done("a", Keys::HashOf("a"), &started, At(t0 + 4ms), &from, &to), Keys::Finished::kRequeued);
    EXPECT_EQ(from, kLowPriority);  // where its deferred add was counted
    EXPECT_EQ(to, 5);
    EXPECT_EQ(keys.Take(t0 + 5ms).key, "a");
}

TEST(PriorityKeySet, WithoutPrioritiesEveryKeyIsOneFifo) {
    Keys keys;
    const auto t0 = Clock::now();
    AddAt(keys, "low", kLowPriority, t0);
    AddAt(keys, "high", 10, t0 + 1ms);
    const Keys::Handout first = keys.Take(t0);
    EXPECT_EQ(first.key, "low");
    EXPECT_EQ(first.priority, 0);
    EXPECT_EQ(keys.Take(t0).key, "high");
}

class PriorityQueueTest : public ::testing::Test {
  protected:
    std::optional<PrioritizedItem<std::string>> Next() {
        return testing::Spawn(io_.Executor(), queue_.AsyncGetWithPriority()).get();
    }

    metrics::Registry registry_;
    IoThreads io_;
    PriorityQueue<std::string> queue_{io_.Executor(), {.name = "orders", .registry = &registry_}};
};

TEST_F(PriorityQueueTest, AddWithOptionsQueuesAtItsPriorityAndHandsItOut) {
    queue_.Add("normal");
    queue_.AddWithOptions({.priority = kLowPriority}, "low");
    queue_.AddWithOptions({.priority = 7}, "high");
    const std::string depth = R"(workqueue_depth{controller="orders",name="orders",priority=")";
    const std::string text = registry_.SerializeText();
    EXPECT_NE(text.find(depth + R"(-100"} 1)"), std::string::npos) << text;
    EXPECT_NE(text.find(depth + R"(0"} 1)"), std::string::npos) << text;
    EXPECT_NE(text.find(depth + R"(7"} 1)"), std::string::npos) << text;

    std::vector<std::pair<std::string, int>> got;
    for (int i = 0; i < 3; ++i) {
        std::optional<PrioritizedItem<std::string>> item = Next();
        ASSERT_TRUE(item);
        got.emplace_back(item->item, item->priority);
        queue_.Done(item->item);
    }
    EXPECT_EQ(got, (std::vector<std::pair<std::string, int>>{{"high", 7}, {"normal", 0}, {"low", kLowPriority}}));
    EXPECT_NE(registry_.SerializeText().find(depth + R"(-100"} 0)"), std::string::npos);
}

TEST_F(PriorityQueueTest, DelayedAndRateLimitedAddsKeepTheirPriority) {
    queue_.AddWithOptions({.after = 20ms, .priority = 3}, "later");
    queue_.AddWithOptions({.rate_limited = true, .priority = 2}, "limited");
    queue_.Add("now");
    std::optional<PrioritizedItem<std::string>> first = Next();
    ASSERT_TRUE(first);
    EXPECT_EQ(first->item, "now");
    queue_.Done(first->item);
    EXPECT_TRUE(Eventually([&] { return queue_.Len() == 2; }));
    std::optional<PrioritizedItem<std::string>> second = Next();
    std::optional<PrioritizedItem<std::string>> third = Next();
    ASSERT_TRUE(second && third);
    EXPECT_EQ(second->item, "later");
    EXPECT_EQ(second->priority, 3);
    EXPECT_EQ(third->item, "limited");
    EXPECT_EQ(third->priority, 2);
    EXPECT_EQ(queue_.NumRequeues("limited"), 1);
}

TEST(PlainQueueTest, IgnoresPrioritiesAndHandsOutZero) {
    IoThreads io;
    Queue<std::string> queue(io.Executor());
    queue.AddWithOptions({.priority = kLowPriority}, "first");
    queue.AddWithOptions({.priority = 50}, "second");
    std::optional<PrioritizedItem<std::string>> item =
        testing::Spawn(io.Executor(), queue.AsyncGetWithPriority()).get();
    ASSERT_TRUE(item);
    EXPECT_EQ(item->item, "first");
    EXPECT_EQ(item->priority, 0);
}

}  // namespace
}  // namespace ctrl::workqueue
