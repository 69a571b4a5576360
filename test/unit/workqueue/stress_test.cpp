#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <future>
#include <latch>
#include <optional>
#include <random>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "ctrl/metrics/registry.hpp"
#include "ctrl/workqueue/queue.hpp"
#include "test/unit/workqueue/test_support.hpp"

namespace ctrl::workqueue {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using testing::IoThreads;
using testing::ReadyWithin;
using testing::ShutDownAtExit;
using testing::Spawn;

// What the test knows about one key. A producer bumps `issued` before each Add; a consumer
// that takes the key records the value it sees in `covered`. An Add is honoured when a
// processing of its key starts after it was issued, so at the end covered == issued for every
// key, or some Add was lost.
struct KeyState {
    std::atomic<uint64_t> issued{0};
    std::atomic<uint64_t> covered{0};
    std::atomic<uint64_t> processings{0};
    std::atomic<bool> busy{false};
};

class Stress {
  public:
    explicit Stress(int keys) : keys_(keys) {}

    void Produce(Queue<int>& queue, int adds, uint32_t seed, bool with_delays, std::latch& start) {
        std::mt19937 rng(seed);
        start.arrive_and_wait();
        for (int i = 0; i < adds; ++i) {
            if (i % 64 == 0)
                std::this_thread::yield();  // interleave with the other producers and the consumers
            const int key = static_cast<int>(rng() % keys_.size());
            keys_[key].issued.fetch_add(1);
            if (with_delays && rng() % 4 == 0) {
                queue.AddAfter(key, std::chrono::microseconds(rng() % 2000));
            } else {
                queue.Add(key);
            }
        }
    }

    void Process(int key) {
        KeyState& state = keys_[key];
        if (state.busy.exchange(true))
            overlaps_.fetch_add(1);
        state.covered.store(state.issued.load());
        if (state.processings.fetch_add(1) % 16 == 0)
            std::this_thread::yield();  // let others try to take the same key meanwhile
        state.busy.store(false);
    }

    void ConsumeBlocking(Queue<int>& queue) {
        while (std::optional<int> key = queue.Get()) {
            Process(*key);
            queue.Done(*key);
        }
    }

    Task<void> ConsumeAsync(Queue<int>& queue) {
        while (std::optional<int> key = co_await queue.AsyncGet()) {
            Process(*key);
            queue.Done(*key);
        }
    }

    bool AllCovered() const {
        return std::all_of(keys_.begin(), keys_.end(), [](const KeyState& k) { return k.covered == k.issued; });
    }
    int Lost() const {
        return static_cast<int>(
            std::count_if(keys_.begin(), keys_.end(), [](const KeyState& k) { return k.covered != k.issued; }));
    }
    uint64_t Processings() const {
        uint64_t total = 0;
        for (const KeyState& k : keys_)
            total += k.processings;
        return total;
    }
    int Overlaps() const { return overlaps_; }

  private:
    std::vector<KeyState> keys_;
    std::atomic<int> overlaps_{0};
};

// Runs producers and consumers (half blocking threads, half coroutines on a two-thread loop),
// waits until every add has been honoured, then shuts the queue down.
void RunStress(int producers, int consumers, int adds_per_producer, int keys, bool with_delays) {
    metrics::Registry registry;
    IoThreads io(2);
    Queue<int> queue(io.Executor(), {.name = "stress", .registry = &registry});
    Stress stress(keys);
    const auto start = Clock::now();

    std::vector<std::future<void>> running;
    ShutDownAtExit guard(queue);
    for (int i = 0; i < consumers; ++i) {
        if (i % 2 == 0) {
            running.push_back(std::async(std::launch::async, [&] { stress.ConsumeBlocking(queue); }));
        } else {
            running.push_back(Spawn(io.Executor(), stress.ConsumeAsync(queue)));
        }
    }
    std::vector<std::thread> producer_threads;
    std::latch go(producers);
    for (int i = 0; i < producers; ++i) {
        producer_threads.emplace_back(
            [&, i] { stress.Produce(queue, adds_per_producer, static_cast<uint32_t>(i + 1), with_delays, go); });
    }
    for (auto& thread : producer_threads)
        thread.join();
    const auto produced = Clock::now();
    ASSERT_TRUE(testing::Eventually([&] { return stress.AllCovered(); }, 60s))
        << stress.Lost() << " keys have adds that no processing honoured";
    // An add whose ticket a processing already covered may queue its key once more: let it pass.
    EXPECT_TRUE(testing::Eventually([&] { return queue.Len() == 0; }));
    queue.ShutDown();
    for (auto& consumer : running)
        ASSERT_TRUE(ReadyWithin(consumer, testing::kTestWait));

    EXPECT_EQ(stress.Overlaps(), 0) << "a key was processed by two consumers at once";
    const uint64_t adds = static_cast<uint64_t>(producers) * static_cast<uint64_t>(adds_per_producer);
    EXPECT_LE(stress.Processings(), adds);
    const auto ms = [](Clock::duration d) { return std::chrono::duration_cast<std::chrono::milliseconds>(d).count(); };
    std::printf("stress: %llu adds, %llu processings, %lld ms producing, %lld ms in all\n",
                static_cast<unsigned long long>(adds), static_cast<unsigned long long>(stress.Processings()),
                static_cast<long long>(ms(produced - start)), static_cast<long long>(ms(Clock::now() - start)));
}

// Acceptance 2: 4 producers x 8 consumers x 100k adds over 1k keys.
TEST(QueueStress, NoKeyProcessedConcurrentlyNoneLostEveryLaterAddProcessed) {
    RunStress(/*producers=*/4, /*consumers=*/8, /*adds_per_producer=*/100'000, /*keys=*/1000, /*with_delays=*/false);
}

// The same with a quarter of the adds delayed by up to 2 ms: the timer path under load.
TEST(QueueStress, WithDelayedAdds) {
    RunStress(/*producers=*/4, /*consumers=*/8, /*adds_per_producer=*/25'000, /*keys=*/1000, /*with_delays=*/true);
}

}  // namespace
}  // namespace ctrl::workqueue
