// queue [--seconds S] (PROTOCOL.md): the work queue a controller gets by default, with the
// controller's key type, timed in loops of about S seconds per shape; ns per item (wall).

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "ctrl/handler/request_queue.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/reconcile/request.hpp"
#include "ctrl/workqueue/queue.hpp"
#include "test/bench/bench_process.hpp"
#include "test/bench/vs/load_observer.hpp"
#include "test/bench/vs/scenarios.hpp"

namespace ctrl::bench::vs {
namespace {

using Clock = std::chrono::steady_clock;
using Key = reconcile::Request;  // the controller's key: an ObjectKey (namespace, name)

constexpr int kSmallBatch = 1'000;
constexpr int kLargeBatch = 100'000;
// The name a builder gives a controller For<api::Pod>: its queue and metrics carry it.
constexpr const char* kQueueName = "pod";

// The queue controller::Controller makes for itself (runtime/controller/controller.cpp NewQueue):
// named after the controller, metrics in the default registry, the default rate limiter.
std::unique_ptr<handler::RequestQueue> NewControllerQueue(const boost::asio::any_io_executor& executor) {
    workqueue::QueueOptions<Key> options;
    options.name = kQueueName;
    options.registry = &metrics::DefaultRegistry();
    options.rate_limiter = nullptr;  // DefaultControllerRateLimiter, as controller::Options leaves it
    return std::make_unique<workqueue::Queue<Key>>(executor, std::move(options));
}

// Namespace "namespace-<i % 10>", name "object-name-<i>", for i in [0, count).
std::vector<Key> PrecomputedKeys(int count) {
    std::vector<Key> keys;
    keys.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i)
        keys.emplace_back("namespace-" + std::to_string(i % 10), "object-name-" + std::to_string(i));
    return keys;
}

double NanosPerItem(Clock::duration elapsed, int64_t items) {
    return static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count()) /
           static_cast<double>(items);
}

// Runs round (which returns the items it handled) until about seconds have passed, at least once;
// ns per item over the whole time.
template <typename Round>
double Repeat(double seconds, Round round) {
    const auto budget = std::chrono::duration<double>(seconds);
    int64_t items = 0;
    const Clock::time_point start = Clock::now();
    Clock::duration elapsed{};
    do {
        items += round();
        elapsed = Clock::now() - start;
    } while (elapsed < budget);
    return NanosPerItem(elapsed, items);
}

// One thread adds 1,000 new keys, then Gets and Dones each; round r takes the r-th block of 1,000
// of the 100,000 keys (cycling), as the Go peer does.
double AddGetDoneOneThread(const boost::asio::any_io_executor& executor, const std::vector<Key>& keys, double seconds) {
    auto queue = NewControllerQueue(executor);
    int round = 0;
    return Repeat(seconds, [&] {
        const int first = (round++ % (kLargeBatch / kSmallBatch)) * kSmallBatch;
        for (int i = first; i < first + kSmallBatch; ++i)
            queue->Add(keys[i]);
        for (int i = 0; i < kSmallBatch; ++i) {
            std::optional<Key> key = queue->Get();
            queue->Done(*key);
        }
        return static_cast<int64_t>(kSmallBatch);
    });
}

// This thread adds 100,000 new keys while a consumer thread Gets and Dones them; a round ends
// when the consumer has finished them all (the next round adds the same keys again).
double AddGetDoneTwoThreads(const boost::asio::any_io_executor& executor, const std::vector<Key>& keys,
                            double seconds) {
    auto queue = NewControllerQueue(executor);
    std::atomic<int64_t> finished{0};
    std::thread consumer([&] {
        while (std::optional<Key> key = queue->Get()) {
            queue->Done(*key);
            finished.fetch_add(1, std::memory_order_release);
        }
    });
    int64_t added = 0;
    const double ns = Repeat(seconds, [&] {
        for (int i = 0; i < kLargeBatch; ++i)
            queue->Add(keys[i]);
        added += kLargeBatch;
        while (finished.load(std::memory_order_acquire) < added)
            std::this_thread::yield();
        return static_cast<int64_t>(kLargeBatch);
    });
    queue->ShutDown();
    consumer.join();
    return ns;
}

// 1,000 keys are queued; every Add of them again is a duplicate.
double DeduplicatedAdd(const boost::asio::any_io_executor& executor, const std::vector<Key>& keys, double seconds) {
    auto queue = NewControllerQueue(executor);
    for (int i = 0; i < kSmallBatch; ++i)
        queue->Add(keys[i]);
    return Repeat(seconds, [&] {
        for (int i = 0; i < kSmallBatch; ++i)
            queue->Add(keys[i]);
        return static_cast<int64_t>(kSmallBatch);
    });
}

// AddAfter(key, 1 h) of 100,000 distinct keys into a fresh queue; only the inserts are timed.
double AddAfter(const boost::asio::any_io_executor& executor, const std::vector<Key>& keys, double seconds) {
    const auto budget = std::chrono::duration<double>(seconds);
    const Clock::time_point wall_start = Clock::now();
    Clock::duration timed{};
    int64_t items = 0;
    do {
        auto queue = NewControllerQueue(executor);
        const Clock::time_point start = Clock::now();
        for (int i = 0; i < kLargeBatch; ++i)
            queue->AddAfter(keys[i], std::chrono::hours(1));
        timed += Clock::now() - start;
        items += kLargeBatch;
        queue.reset();
    } while (Clock::now() - wall_start < budget);
    return NanosPerItem(timed, items);
}

}  // namespace

int RunQueue(const ProbeArgs& args) {
    const double seconds = args.Number("seconds", 1);
    if (!(seconds > 0)) {
        std::fprintf(stderr, "ctrl-vs-probe queue: --seconds %g: must be positive\n", seconds);
        return 2;
    }
    std::fprintf(stderr,
                 "ctrl-vs-probe queue: the queue controller::Controller makes: workqueue::Queue<reconcile::Request> "
                 "named \"%s\", the default controller rate limiter, metrics on (metrics::DefaultRegistry()); "
                 "its timers on one io thread\n",
                 kQueueName);
    Loop loop;  // the executor a controller's queue runs its delays on (the manager's loop)
    const std::vector<Key> keys = PrecomputedKeys(kLargeBatch);
    Figures figures;
    figures["add_get_done_1t_ns"] = AddGetDoneOneThread(loop.Executor(), keys, seconds);
    figures["add_get_done_2t_ns"] = AddGetDoneTwoThreads(loop.Executor(), keys, seconds);
    figures["dedup_add_ns"] = DeduplicatedAdd(loop.Executor(), keys, seconds);
    figures["add_after_ns"] = AddAfter(loop.Executor(), keys, seconds);
    loop.Stop();
    PrintResult(figures);
    return 0;
}

}  // namespace ctrl::bench::vs
