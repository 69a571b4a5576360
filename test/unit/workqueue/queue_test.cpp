#include <chrono>
#include <future>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "ctrl/workqueue/queue.hpp"
#include "test/unit/workqueue/test_support.hpp"

#include <boost/asio/io_context.hpp>

namespace ctrl::workqueue {
namespace {

using namespace std::chrono_literals;
using testing::IoThreads;
using testing::kQuiet;
using testing::kTestWait;
using testing::ReadyWithin;
using testing::ShutDownAtExit;

class QueueTest : public ::testing::Test {
  protected:
    std::future<std::optional<std::string>> GetOnThread() {
        return std::async(std::launch::async, [this] { return queue_.Get(); });
    }

    IoThreads io_;
    Queue<std::string> queue_{io_.Executor()};
};

TEST_F(QueueTest, HandsOutKeysInTheOrderTheyCame) {
    queue_.Add("a");
    queue_.Add("b");
    queue_.Add("c");
    EXPECT_EQ(queue_.Len(), 3u);
    for (const char* want : {"a", "b", "c"}) {
        std::optional<std::string> got = queue_.Get();
        ASSERT_TRUE(got.has_value());
        EXPECT_EQ(*got, want);
        queue_.Done(*got);
    }
    EXPECT_EQ(queue_.Len(), 0u);
}

TEST_F(QueueTest, AddDeduplicatesWaitingKeys) {
    queue_.Add("a");
    queue_.Add("a");
    queue_.Add("b");
    queue_.Add("a");
    EXPECT_EQ(queue_.Len(), 2u);
    EXPECT_EQ(queue_.Get(), "a");
    EXPECT_EQ(queue_.Get(), "b");
    EXPECT_EQ(queue_.Len(), 0u);
}

TEST_F(QueueTest, KeyAddedWhileProcessingWaitsForDone) {
    queue_.Add("a");
    ASSERT_EQ(queue_.Get(), "a");
    queue_.Add("a");
    queue_.Add("a");
    EXPECT_EQ(queue_.Len(), 0u);  // not handed out while "a" is processed
    queue_.Add("b");
    EXPECT_EQ(queue_.Get(), "b");
    queue_.Done("b");
    queue_.Done("a");
    EXPECT_EQ(queue_.Len(), 1u);  // queued again, once
    EXPECT_EQ(queue_.Get(), "a");
    queue_.Done("a");
    EXPECT_EQ(queue_.Len(), 0u);
}

TEST_F(QueueTest, ConsumerWaitingForAProcessingKeyGetsItAfterDone) {
    queue_.Add("a");
    ASSERT_EQ(queue_.Get(), "a");
    queue_.Add("a");
    auto waiting = GetOnThread();
    ShutDownAtExit guard(queue_);
    EXPECT_FALSE(ReadyWithin(waiting, kQuiet));
    queue_.Done("a");
    ASSERT_TRUE(ReadyWithin(waiting, kTestWait));
    EXPECT_EQ(waiting.get(), "a");
}

TEST_F(QueueTest, DoneOfAKeyNotBeingProcessedIsIgnored) {
    queue_.Done("never-added");
    queue_.Add("a");
    queue_.Done("a");  // waiting, not processing
    EXPECT_EQ(queue_.Len(), 1u);
    ASSERT_EQ(queue_.Get(), "a");
    queue_.Done("a");
    queue_.Done("a");  // twice
    EXPECT_EQ(queue_.Len(), 0u);
    queue_.Add("a");
    EXPECT_EQ(queue_.Len(), 1u);
}

TEST_F(QueueTest, GetBlocksUntilAnAdd) {
    auto waiting = GetOnThread();
    ShutDownAtExit guard(queue_);
    EXPECT_FALSE(ReadyWithin(waiting, kQuiet));
    queue_.Add("a");
    ASSERT_TRUE(ReadyWithin(waiting, kTestWait));
    EXPECT_EQ(waiting.get(), "a");
}

TEST_F(QueueTest, EachBlockedConsumerGetsADifferentKey) {
    std::vector<std::future<std::optional<std::string>>> consumers;
    ShutDownAtExit guard(queue_);
    for (int i = 0; i < 4; ++i)
        consumers.push_back(GetOnThread());
    std::this_thread::sleep_for(20ms);
    for (const char* key : {"a", "b", "c", "d"})
        queue_.Add(key);
    std::set<std::string> got;
    for (auto& consumer : consumers) {
        ASSERT_TRUE(ReadyWithin(consumer, kTestWait));
        std::optional<std::string> key = consumer.get();
        ASSERT_TRUE(key.has_value());
        got.insert(*key);
    }
    EXPECT_EQ(got, (std::set<std::string>{"a", "b", "c", "d"}));
}

TEST_F(QueueTest, AddIsIgnoredOnceShuttingDown) {
    EXPECT_FALSE(queue_.ShuttingDown());
    queue_.ShutDown();
    EXPECT_TRUE(queue_.ShuttingDown());
    queue_.Add("a");
    EXPECT_EQ(queue_.Len(), 0u);
    EXPECT_EQ(queue_.Get(), std::nullopt);
}

TEST_F(QueueTest, ShutDownStillHandsOutQueuedKeys) {
    queue_.Add("a");
    queue_.Add("b");
    queue_.ShutDown();
    queue_.ShutDown();  // idempotent
    EXPECT_EQ(queue_.Get(), "a");
    EXPECT_EQ(queue_.Get(), "b");
    EXPECT_EQ(queue_.Get(), std::nullopt);
    EXPECT_EQ(queue_.Get(), std::nullopt);
}

TEST_F(QueueTest, ShutDownWakesEveryBlockedConsumer) {
    std::vector<std::future<std::optional<std::string>>> consumers;
    ShutDownAtExit guard(queue_);
    for (int i = 0; i < 3; ++i)
        consumers.push_back(GetOnThread());
    std::this_thread::sleep_for(20ms);
    queue_.ShutDown();
    for (auto& consumer : consumers) {
        ASSERT_TRUE(ReadyWithin(consumer, kTestWait));
        EXPECT_EQ(consumer.get(), std::nullopt);
    }
}

TEST_F(QueueTest, ShutDownWithDrainWaitsForKeysInProgress) {
    queue_.Add("a");
    queue_.Add("b");
    ASSERT_EQ(queue_.Get(), "a");
    ASSERT_EQ(queue_.Get(), "b");
    auto drain = std::async(std::launch::async, [this] { queue_.ShutDownWithDrain(); });
    ShutDownAtExit guard(queue_);
    EXPECT_FALSE(ReadyWithin(drain, kQuiet));
    EXPECT_TRUE(queue_.ShuttingDown());
    queue_.Add("c");  // refused while draining
    queue_.Done("a");
    EXPECT_FALSE(ReadyWithin(drain, kQuiet));
    queue_.Done("b");
    EXPECT_TRUE(ReadyWithin(drain, kTestWait));
    EXPECT_EQ(queue_.Len(), 0u);
}

TEST_F(QueueTest, ShutDownWithDrainReturnsAtOnceWhenNothingIsInProgress) {
    queue_.Add("a");  // queued, not handed out: client-go's drain waits for keys in progress only
    queue_.ShutDownWithDrain();
    EXPECT_TRUE(queue_.ShuttingDown());
    EXPECT_EQ(queue_.Get(), "a");
    queue_.Done("a");
    EXPECT_EQ(queue_.Get(), std::nullopt);
}

TEST_F(QueueTest, DrainedKeyAddedDuringProcessingIsStillHandedOut) {
    queue_.Add("a");
    ASSERT_EQ(queue_.Get(), "a");
    queue_.Add("a");  // dirty while processing: accepted before the shutdown
    auto drain = std::async(std::launch::async, [this] { queue_.ShutDownWithDrain(); });
    ShutDownAtExit guard(queue_);
    EXPECT_FALSE(ReadyWithin(drain, kQuiet));
    queue_.Done("a");
    EXPECT_TRUE(ReadyWithin(drain, kTestWait));
    EXPECT_EQ(queue_.Get(), "a");
}

TEST_F(QueueTest, ShutDownCallsOffADrain) {
    queue_.Add("a");
    ASSERT_EQ(queue_.Get(), "a");
    auto drain = std::async(std::launch::async, [this] { queue_.ShutDownWithDrain(); });
    ShutDownAtExit guard(queue_);
    EXPECT_FALSE(ReadyWithin(drain, kQuiet));
    queue_.ShutDown();
    EXPECT_TRUE(ReadyWithin(drain, kTestWait));
}

TEST(QueueLifetime, DestroyingTheQueueLeavesTheLoopNoWork) {
    boost::asio::io_context io;
    metrics::Registry registry;
    {
        Queue<std::string> queue(io.get_executor(), {.name = "lifetime", .registry = &registry});
        queue.AddAfter("later", 1h);
        queue.Add("now");
        ASSERT_EQ(queue.Get(), "now");  // starts the metrics refresh
        io.poll();
    }
    io.run_for(kTestWait);
    EXPECT_TRUE(io.stopped()) << "run_for ended at its deadline, not for lack of work";
}

TEST(QueueKeys, WorksWithObjectKeys) {
    IoThreads io;
    Queue<ObjectKey> queue(io.Executor());
    queue.Add({"default", "web"});
    queue.Add({"default", "web"});
    queue.Add({"kube-system", "web"});
    EXPECT_EQ(queue.Len(), 2u);
    std::optional<ObjectKey> key = queue.Get();
    ASSERT_TRUE(key.has_value());
    EXPECT_EQ(*key, (ObjectKey{"default", "web"}));
    queue.Done(*key);
}

}  // namespace
}  // namespace ctrl::workqueue
