// The shapes of the `queue` scenario (PROTOCOL.md): ns per item (wall), each on queues a factory
// makes.

#include "test/bench/vs/queue_shapes.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>

#include "ctrl/workqueue/priority.hpp"

namespace ctrl::bench::vs::queue {
namespace {

using Clock = std::chrono::steady_clock;

double NanosPerItem(Clock::duration elapsed, int64_t items) {
    return static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count()) /
           static_cast<double>(items);
}

// The figure of a shape: its time split into kSlices slices of equal length, each measured on its
// own (measure_slice(seconds) -> ns per item), the median slice. One slice a preemption or a burst
// of another process hit does not move it, as it moves a mean over the whole time (PROTOCOL.md,
// "queue"; the peer's repeatFor does the same).
constexpr int kSlices = 5;
template <typename MeasureSlice>
double MedianOfSlices(double seconds, MeasureSlice measure_slice) {
    std::array<double, kSlices> slices{};
    for (double& slice : slices)
        slice = measure_slice(seconds / kSlices);
    std::sort(slices.begin(), slices.end());
    return slices[kSlices / 2];
}

// Runs round (which returns the items it handled) until about seconds have passed, at least once
// per slice; ns per item, the median slice.
template <typename Round>
double Repeat(double seconds, Round round) {
    return MedianOfSlices(seconds, [&](double slice_seconds) {
        const auto budget = std::chrono::duration<double>(slice_seconds);
        int64_t items = 0;
        const Clock::time_point start = Clock::now();
        Clock::duration elapsed{};
        do {
            items += round();
            elapsed = Clock::now() - start;
        } while (elapsed < budget);
        return NanosPerItem(elapsed, items);
    });
}

// The first key of round r's block of kSmallBatch (the blocks of the kLargeBatch keys, cycling).
int BlockStart(int round) {
    return (round % (kLargeBatch / kSmallBatch)) * kSmallBatch;
}

// Gets and Dones count items.
void GetAndDone(handler::RequestQueue& queue, int count) {
    for (int i = 0; i < count; ++i) {
        std::optional<Key> key = queue.Get();
        queue.Done(*key);
    }
}

}  // namespace

std::vector<Key> PrecomputedKeys(int count) {
    std::vector<Key> keys;
    keys.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i)
        keys.emplace_back("namespace-" + std::to_string(i % 10), "object-name-" + std::to_string(i));
    return keys;
}

double AddGetDoneOneThread(const QueueFactory& new_queue, const std::vector<Key>& keys, double seconds) {
    auto queue = new_queue();
    int round = 0;
    return Repeat(seconds, [&] {
        const int first = BlockStart(round++);
        for (int i = first; i < first + kSmallBatch; ++i)
            queue->Add(keys[i]);
        GetAndDone(*queue, kSmallBatch);
        return static_cast<int64_t>(kSmallBatch);
    });
}

// A round ends when the consumer has finished all 100,000 (the next round adds the same keys again).
double AddGetDoneTwoThreads(const QueueFactory& new_queue, const std::vector<Key>& keys, double seconds) {
    auto queue = new_queue();
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

double DeduplicatedAdd(const QueueFactory& new_queue, const std::vector<Key>& keys, double seconds) {
    auto queue = new_queue();
    for (int i = 0; i < kSmallBatch; ++i)
        queue->Add(keys[i]);
    return Repeat(seconds, [&] {
        for (int i = 0; i < kSmallBatch; ++i)
            queue->Add(keys[i]);
        return static_cast<int64_t>(kSmallBatch);
    });
}

// The queue's construction and destruction are outside the timed intervals.
double AddAfter(const QueueFactory& new_queue, const std::vector<Key>& keys, double seconds) {
    return MedianOfSlices(seconds, [&](double slice_seconds) {
        const auto budget = std::chrono::duration<double>(slice_seconds);
        const Clock::time_point wall_start = Clock::now();
        Clock::duration timed{};
        int64_t items = 0;
        do {
            auto queue = new_queue();
            const Clock::time_point start = Clock::now();
            for (int i = 0; i < kLargeBatch; ++i)
                queue->AddAfter(keys[i], std::chrono::hours(1));
            timed += Clock::now() - start;
            items += kLargeBatch;
            queue.reset();
        } while (Clock::now() - wall_start < budget);
        return NanosPerItem(timed, items);
    });
}

// Every Get finds an item: each thread Gets only after its own Add, and within a round every key
// is new (the previous round Done them all), so no Add is a duplicate.
double ContendedTwoThreads(const QueueFactory& new_queue, const std::vector<Key>& keys, double seconds) {
    auto queue = new_queue();
    constexpr int kHalf = kLargeBatch / 2;
    auto work = [&](int first) {
        for (int i = first; i < first + kHalf; ++i) {
            queue->Add(keys[i]);
            std::optional<Key> key = queue->Get();
            queue->Done(*key);
        }
    };
    return Repeat(seconds, [&] {
        std::thread first_half(work, 0);
        std::thread second_half(work, kHalf);
        first_half.join();
        second_half.join();
        return static_cast<int64_t>(kLargeBatch);
    });
}

double MixedPriorityOneThread(const QueueFactory& new_queue, const std::vector<Key>& keys, double seconds) {
    auto queue = new_queue();
    workqueue::AddOptions low;
    low.priority = workqueue::kLowPriority;
    workqueue::AddOptions normal;
    normal.priority = 0;
    int round = 0;
    return Repeat(seconds, [&] {
        const int first = BlockStart(round++);
        for (int i = first; i < first + kSmallBatch; ++i)
            queue->AddWithOptions((i - first) % 2 == 0 ? low : normal, keys[i]);
        GetAndDone(*queue, kSmallBatch);
        return static_cast<int64_t>(kSmallBatch);
    });
}

}  // namespace ctrl::bench::vs::queue
