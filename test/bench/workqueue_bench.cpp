// Work queue costs beside the Go figures the issue names: controller-runtime's
// BenchmarkAddGetDone (1000 int keys added, then taken and Done: ~1.05 us per key) and
// BenchmarkAddOnly (the same 1000 keys added again, all duplicates: ~91 ns per Add), and
// client-go's BenchmarkDelayingQueue_AddAfter (distinct string keys with random delays up to
// 10 min, then a fake clock steps past them and all are taken: ~3.1 us per key). Each row
// reports ns_per_item; rows with several threads also give the total rate (items_per_second).

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>

#include <benchmark/benchmark.h>

#include "ctrl/core/gvk.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/workqueue/queue.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

namespace ctrl::workqueue {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kBatch = 1000;  // keys per iteration, as controller-runtime's benchmarks

// The loop every queue runs its timers on: one thread, idle unless a benchmark uses timers.
class Loop final {
  public:
    Loop() : guard_(boost::asio::make_work_guard(io_)), thread_([this] { io_.run(); }) {}
    ~Loop() {
        guard_.reset();
        io_.stop();
        thread_.join();
    }
    boost::asio::any_io_executor Executor() { return io_.get_executor(); }

  private:
    boost::asio::io_context io_;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> guard_;
    std::thread thread_;
};

Loop& SharedLoop() {
    static Loop* loop = new Loop();  // never destroyed: benchmarks may end in any order
    return *loop;
}

metrics::Registry& BenchRegistry() {
    static metrics::Registry* registry = new metrics::Registry();
    return *registry;
}

template <typename T>
std::unique_ptr<Queue<T>> NewQueue(bool with_metrics) {
    return std::make_unique<Queue<T>>(
        SharedLoop().Executor(),
        typename Queue<T>::Options{.name = with_metrics ? "bench" : "", .registry = &BenchRegistry()});
}

void ReportPerItem(benchmark::State& state, Clock::duration elapsed, int64_t items) {
    const double ns = static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count());
    state.counters["ns_per_item"] =
        benchmark::Counter(ns / static_cast<double>(items), benchmark::Counter::kAvgThreads);
    state.SetItemsProcessed(items);
}

std::unique_ptr<Queue<int>> shared_int_queue;

// controller-runtime's BenchmarkAddGetDone: add 1000 keys, then take and finish each. With
// two threads both work on one queue and may take each other's keys, so keys never repeat
// (a key still waiting from an earlier round would be de-duplicated, and a Get would wait
// forever). Arg: metrics on (1) or off (0).
void BM_AddGetDone(benchmark::State& state) {
    if (state.thread_index() == 0)
        shared_int_queue = NewQueue<int>(state.range(0) != 0);
    const int threads = state.threads();
    int next = state.thread_index();
    const auto start = Clock::now();
    for (auto _ : state) {
        Queue<int>& queue = *shared_int_queue;
        for (int i = 0; i < kBatch; ++i, next += threads)
            queue.Add(next);
        for (int i = 0; i < kBatch; ++i) {
            std::optional<int> key = queue.Get();
            queue.Done(*key);
        }
    }
    ReportPerItem(state, Clock::now() - start, state.iterations() * kBatch);
    if (state.thread_index() == 0) {
        shared_int_queue.reset();
        state.SetLabel("controller-runtime ~1050 ns");
    }
}
BENCHMARK(BM_AddGetDone)->ArgName("metrics")->Arg(0)->Arg(1)->Threads(1)->Threads(2)->UseRealTime();

// The same with the keys a controller uses (namespace/name), metrics on.
void BM_AddGetDoneObjectKey(benchmark::State& state) {
    auto queue = NewQueue<ObjectKey>(true);
    std::vector<ObjectKey> keys;
    for (int i = 0; i < kBatch; ++i)
        keys.push_back({"namespace-" + std::to_string(i % 10), "object-name-" + std::to_string(i)});
    const auto start = Clock::now();
    for (auto _ : state) {
        for (const ObjectKey& key : keys)
            queue->Add(key);
        for (int i = 0; i < kBatch; ++i) {
            std::optional<ObjectKey> key = queue->Get();
            queue->Done(*key);
        }
    }
    ReportPerItem(state, Clock::now() - start, state.iterations() * kBatch);
    state.SetLabel("controller-runtime ~1050 ns (int keys)");
}
BENCHMARK(BM_AddGetDoneObjectKey)->UseRealTime();

// A producer thread adds while a consumer thread takes and finishes: a pipeline in which every
// key crosses threads and the consumer sleeps whenever it catches up. An iteration adds 100k
// new keys and then waits for the consumer to finish them. Metrics on.
void BM_AddGetDoneProducerConsumer(benchmark::State& state) {
    constexpr int kKeys = 100'000;
    auto queue = NewQueue<int>(true);
    std::atomic<int64_t> finished{0};
    std::thread consumer([&] {
        while (std::optional<int> key = queue->Get()) {
            queue->Done(*key);
            finished.fetch_add(1, std::memory_order_release);
        }
    });
    int next = 0;
    int64_t items = 0;
    const auto start = Clock::now();
    for (auto _ : state) {
        for (int i = 0; i < kKeys; ++i)
            queue->Add(next++);
        items += kKeys;
        while (finished.load(std::memory_order_acquire) < items)
            std::this_thread::yield();
    }
    ReportPerItem(state, Clock::now() - start, items);
    queue->ShutDown();
    consumer.join();
    state.SetLabel("2 threads; controller-runtime ~1050 ns (1 thread)");
}
BENCHMARK(BM_AddGetDoneProducerConsumer)->UseRealTime()->Unit(benchmark::kMillisecond);

// Add, then co_await AsyncGet and Done on a coroutine: the consumer side a controller's
// workers use (the key is there, so AsyncGet does not suspend). The queue's timers stay on
// the shared loop; the coroutine runs on a local io_context. Metrics on.
void BM_AddAsyncGetDone(benchmark::State& state) {
    boost::asio::io_context io;
    auto queue = NewQueue<int>(true);
    const auto start = Clock::now();
    for (auto _ : state) {
        boost::asio::co_spawn(
            io,
            [&queue]() -> Task<void> {
                for (int i = 0; i < kBatch; ++i)
                    queue->Add(i);
                for (int i = 0; i < kBatch; ++i) {
                    std::optional<int> key = co_await queue->AsyncGet();
                    queue->Done(*key);
                }
            },
            boost::asio::detached);
        io.restart();
        io.run();
    }
    ReportPerItem(state, Clock::now() - start, state.iterations() * kBatch);
    state.SetLabel("controller-runtime ~1050 ns (blocking Get)");
}
BENCHMARK(BM_AddAsyncGetDone)->UseRealTime();

// controller-runtime's BenchmarkAddOnly after its first round: 1000 keys already waiting are
// added again; every Add is a duplicate.
void BM_DeduplicatedAdd(benchmark::State& state) {
    auto queue = NewQueue<int>(true);
    for (int i = 0; i < kBatch; ++i)
        queue->Add(i);
    const auto start = Clock::now();
    for (auto _ : state) {
        for (int i = 0; i < kBatch; ++i)
            queue->Add(i);
    }
    ReportPerItem(state, Clock::now() - start, state.iterations() * kBatch);
    state.SetLabel("controller-runtime ~91 ns");
}
BENCHMARK(BM_DeduplicatedAdd)->UseRealTime();

constexpr int kDelayedBatch = 100'000;

// client-go's BenchmarkDelayingQueue_AddAfter without its fake clock: distinct string keys
// made in the loop (client-go formats them with Sprintf) and random delays up to 10 minutes.
// The keys stay waiting; a fresh queue per 100k keys (untimed) keeps the heap at that size.
void BM_AddAfter(benchmark::State& state) {
    std::mt19937_64 rng(1);
    int64_t items = 0;
    Clock::duration elapsed{};
    for (auto _ : state) {
        state.PauseTiming();
        auto queue = NewQueue<std::string>(true);
        state.ResumeTiming();
        const auto start = Clock::now();
        for (int i = 0; i < kDelayedBatch; ++i)
            queue->AddAfter(std::to_string(items + i), std::chrono::nanoseconds(rng() % 600'000'000'000ULL));
        elapsed += Clock::now() - start;
        items += kDelayedBatch;
        state.PauseTiming();
        queue.reset();
        state.ResumeTiming();
    }
    ReportPerItem(state, elapsed, items);
    state.SetLabel("client-go ~3100 ns incl. taking the keys out");
}
BENCHMARK(BM_AddAfter)->UseRealTime()->Unit(benchmark::kMillisecond);

// AddAfter end to end: random delays under 1 ms, the timer on the loop thread moves each key
// into the queue when due, and this thread takes and finishes all of them.
void BM_AddAfterThenGetDone(benchmark::State& state) {
    std::mt19937_64 rng(2);
    int64_t items = 0;
    Clock::duration elapsed{};
    for (auto _ : state) {
        state.PauseTiming();
        auto queue = NewQueue<int>(true);
        state.ResumeTiming();
        const auto start = Clock::now();
        for (int i = 0; i < kDelayedBatch; ++i)
            queue->AddAfter(i, std::chrono::nanoseconds(rng() % 1'000'000));
        for (int i = 0; i < kDelayedBatch; ++i) {
            std::optional<int> key = queue->Get();
            queue->Done(*key);
        }
        elapsed += Clock::now() - start;
        items += kDelayedBatch;
        state.PauseTiming();
        queue.reset();
        state.ResumeTiming();
    }
    ReportPerItem(state, elapsed, items);
    state.SetLabel("client-go ~3100 ns");
}
BENCHMARK(BM_AddAfterThenGetDone)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ctrl::workqueue

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    std::printf(
        "workqueue_bench: ns_per_item beside the Go figures: controller-runtime ~1050 ns per Add+Get+Done, ~91 ns\n"
        "per de-duplicated Add; client-go ~3100 ns per AddAfter (including taking the key out).\n");
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
