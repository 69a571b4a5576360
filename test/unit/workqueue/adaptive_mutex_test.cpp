#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "ctrl/workqueue/internal/adaptive_mutex.hpp"

namespace ctrl::workqueue::internal {
namespace {

TEST(AdaptiveMutex, TryLockFailsWhileHeld) {
    AdaptiveMutex mu;
    ASSERT_TRUE(mu.try_lock());
    std::thread other([&] { EXPECT_FALSE(mu.try_lock()); });
    other.join();
    mu.unlock();
    std::thread again([&] {
        EXPECT_TRUE(mu.try_lock());
        mu.unlock();
    });
    again.join();
}

// Threads outnumbering the cores increment an unguarded counter under the lock: the spinning and
// the sleeping paths both run, and no increment is lost.
TEST(AdaptiveMutex, ExcludesUnderContention) {
    AdaptiveMutex mu;
    uint64_t counter = 0;
    constexpr int kThreads = 8;
    constexpr int kIncrements = 50000;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < kIncrements; ++i) {
                std::lock_guard lock(mu);
                ++counter;
            }
        });
    }
    for (auto& thread : threads)
        thread.join();
    EXPECT_EQ(counter, uint64_t{kThreads} * kIncrements);
}

// A thread that finds another using the lock back to back yields to it once per lock(), then
// competes: it is not starved however long the other keeps going (a starved one would hang here,
// and ctest's timeout would fail the test).
TEST(AdaptiveMutex, AThreadYieldingToABusyOneIsNotStarved) {
    AdaptiveMutex mu;
    std::atomic<bool> stop{false};
    std::atomic<uint64_t> busy_rounds{0};
    std::thread busy([&] {
        while (!stop.load(std::memory_order_relaxed)) {
            std::lock_guard lock(mu);
            busy_rounds.store(busy_rounds.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        }
    });
    while (busy_rounds.load() < 1000)
        std::this_thread::yield();
    constexpr int kLocks = 2000;
    int taken = 0;
    for (int i = 0; i < kLocks; ++i) {
        std::lock_guard lock(mu);
        ++taken;
    }
    stop = true;
    busy.join();
    EXPECT_EQ(taken, kLocks);
}

// Ping-pong through a condition_variable_any: every wait is woken by the other side's notify.
TEST(AdaptiveMutex, WorksWithConditionVariableAny) {
    AdaptiveMutex mu;
    std::condition_variable_any cv;
    constexpr auto kWait = std::chrono::seconds(30);  // a deadline, not a timing: a lost wake-up fails
    int turn = 0;
    constexpr int kRounds = 2000;
    std::thread other([&] {
        for (int i = 0; i < kRounds; ++i) {
            std::unique_lock lock(mu);
            ASSERT_TRUE(cv.wait_for(lock, kWait, [&] { return turn % 2 == 1; }));
            ++turn;
            lock.unlock();
            cv.notify_one();
        }
    });
    for (int i = 0; i < kRounds; ++i) {
        std::unique_lock lock(mu);
        ASSERT_TRUE(cv.wait_for(lock, kWait, [&] { return turn % 2 == 0; }));
        ++turn;
        lock.unlock();
        cv.notify_one();
    }
    other.join();
    EXPECT_EQ(turn, 2 * kRounds);
}

}  // namespace
}  // namespace ctrl::workqueue::internal
