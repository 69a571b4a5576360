#include <atomic>
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

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

namespace ctrl::workqueue {
namespace {

using namespace std::chrono_literals;
using testing::IoThreads;
using testing::kQuiet;
using testing::kTestWait;
using testing::ReadyWithin;
using testing::ShutDownAtExit;
using testing::Spawn;

struct Taken {
    std::optional<std::string> key;
    std::thread::id resumed_on;
};

Task<Taken> TakeOne(Queue<std::string>& queue) {
    std::optional<std::string> key = co_await queue.AsyncGet();
    co_return Taken{std::move(key), std::this_thread::get_id()};
}

class AsyncGetTest : public ::testing::Test {
  protected:
    std::future<Taken> TakeOneOnLoop() { return Spawn(io_.Executor(), TakeOne(queue_)); }

    IoThreads io_;
    Queue<std::string> queue_{io_.Executor()};
};

TEST_F(AsyncGetTest, TakesAQueuedKey) {
    queue_.Add("a");
    auto taken = TakeOneOnLoop();
    ASSERT_TRUE(ReadyWithin(taken, kTestWait));
    EXPECT_EQ(taken.get().key, "a");
    EXPECT_EQ(queue_.Len(), 0u);
}

TEST_F(AsyncGetTest, WaitsForAnAddFromAnotherThreadAndResumesOnTheLoop) {
    auto taken = TakeOneOnLoop();
    ShutDownAtExit guard(queue_);
    EXPECT_FALSE(ReadyWithin(taken, kQuiet));
    queue_.Add("a");
    ASSERT_TRUE(ReadyWithin(taken, kTestWait));
    Taken result = taken.get();
    EXPECT_EQ(result.key, "a");
    EXPECT_TRUE(io_.RunsOn(result.resumed_on));
}

TEST_F(AsyncGetTest, NeverHandsOutAKeyBeingProcessed) {
    queue_.Add("a");
    ASSERT_EQ(queue_.Get(), "a");
    queue_.Add("a");
    auto taken = TakeOneOnLoop();
    ShutDownAtExit guard(queue_);
    EXPECT_FALSE(ReadyWithin(taken, kQuiet));
    queue_.Done("a");
    ASSERT_TRUE(ReadyWithin(taken, kTestWait));
    EXPECT_EQ(taken.get().key, "a");
}

TEST_F(AsyncGetTest, ShutDownWakesEveryWaitingCoroutine) {
    std::vector<std::future<Taken>> consumers;
    ShutDownAtExit guard(queue_);
    for (int i = 0; i < 3; ++i)
        consumers.push_back(TakeOneOnLoop());
    EXPECT_FALSE(ReadyWithin(consumers[0], kQuiet));
    queue_.ShutDown();
    for (auto& consumer : consumers) {
        ASSERT_TRUE(ReadyWithin(consumer, kTestWait));
        EXPECT_EQ(consumer.get().key, std::nullopt);
    }
}

TEST_F(AsyncGetTest, ShutDownStillHandsOutQueuedKeys) {
    queue_.Add("a");
    queue_.ShutDown();
    auto first = TakeOneOnLoop();
    ASSERT_TRUE(ReadyWithin(first, kTestWait));
    EXPECT_EQ(first.get().key, "a");
    auto second = TakeOneOnLoop();
    ASSERT_TRUE(ReadyWithin(second, kTestWait));
    EXPECT_EQ(second.get().key, std::nullopt);
}

TEST_F(AsyncGetTest, BlockingAndAsyncConsumersShareTheKeys) {
    std::vector<std::future<Taken>> coroutines;
    std::vector<std::future<std::optional<std::string>>> threads;
    ShutDownAtExit guard(queue_);
    for (int i = 0; i < 2; ++i) {
        coroutines.push_back(TakeOneOnLoop());
        threads.push_back(std::async(std::launch::async, [this] { return queue_.Get(); }));
    }
    std::this_thread::sleep_for(20ms);
    for (const char* key : {"a", "b", "c", "d"})
        queue_.Add(key);
    std::set<std::string> got;
    for (auto& consumer : coroutines) {
        ASSERT_TRUE(ReadyWithin(consumer, kTestWait));
        got.insert(consumer.get().key.value_or("<none>"));
    }
    for (auto& consumer : threads) {
        ASSERT_TRUE(ReadyWithin(consumer, kTestWait));
        got.insert(consumer.get().value_or("<none>"));
    }
    EXPECT_EQ(got, (std::set<std::string>{"a", "b", "c", "d"}));
}

// docs/decisions.md, decision 2: consumers waiting on the loop's only thread leave it free.
TEST(AsyncGetLoop, WaitingConsumersDoNotBlockTheLoopThread) {
    IoThreads io(1);
    Queue<int> queue(io.Executor());
    std::vector<std::future<std::optional<int>>> consumers;
    ShutDownAtExit guard(queue);
    for (int i = 0; i < 4; ++i)
        consumers.push_back(Spawn(io.Executor(), queue.AsyncGet()));
    std::promise<void> ran;
    auto ran_future = ran.get_future();
    boost::asio::post(io.Executor(), [&ran] { ran.set_value(); });
    EXPECT_TRUE(ReadyWithin(ran_future, kTestWait));
    for (int key = 0; key < 4; ++key)
        queue.Add(key);
    std::set<int> got;
    for (auto& consumer : consumers) {
        ASSERT_TRUE(ReadyWithin(consumer, kTestWait));
        got.insert(consumer.get().value_or(-1));
    }
    EXPECT_EQ(got, (std::set<int>{0, 1, 2, 3}));
}

// A coroutine waiting in AsyncGet is outstanding work: io_context::run does not return under it.
TEST(AsyncGetLoop, AWaitingConsumerKeepsTheLoopRunning) {
    boost::asio::io_context io;
    Queue<int> queue(io.get_executor());
    auto consumer = Spawn(io.get_executor(), queue.AsyncGet());
    auto runner = std::async(std::launch::async, [&io] { io.run(); });
    ShutDownAtExit guard(queue);
    EXPECT_FALSE(ReadyWithin(runner, kQuiet));
    queue.Add(7);
    ASSERT_TRUE(ReadyWithin(consumer, kTestWait));
    EXPECT_EQ(consumer.get(), 7);
    EXPECT_TRUE(ReadyWithin(runner, kTestWait));  // nothing left to wait for
}

TEST_F(AsyncGetTest, AsyncShutDownWithDrainWaitsForKeysInProgress) {
    queue_.Add("a");
    ASSERT_EQ(queue_.Get(), "a");
    auto drain = Spawn(io_.Executor(), queue_.AsyncShutDownWithDrain());
    ShutDownAtExit guard(queue_);
    EXPECT_FALSE(ReadyWithin(drain, kQuiet));
    EXPECT_TRUE(queue_.ShuttingDown());
    queue_.Done("a");
    EXPECT_TRUE(ReadyWithin(drain, kTestWait));
}

TEST_F(AsyncGetTest, AsyncShutDownWithDrainEndsAtOnceWhenIdle) {
    auto drain = Spawn(io_.Executor(), queue_.AsyncShutDownWithDrain());
    EXPECT_TRUE(ReadyWithin(drain, kTestWait));
}

TEST_F(AsyncGetTest, ShutDownCallsOffAnAsyncDrain) {
    queue_.Add("a");
    ASSERT_EQ(queue_.Get(), "a");
    auto drain = Spawn(io_.Executor(), queue_.AsyncShutDownWithDrain());
    ShutDownAtExit guard(queue_);
    EXPECT_FALSE(ReadyWithin(drain, kQuiet));
    queue_.ShutDown();
    EXPECT_TRUE(ReadyWithin(drain, kTestWait));
}

}  // namespace
}  // namespace ctrl::workqueue
