#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "ctrl/core/gvk.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/workqueue/default_rate_limiter.hpp"
#include "ctrl/workqueue/internal/queue_core.hpp"
#include "ctrl/workqueue/priority.hpp"
#include "ctrl/workqueue/queue_metrics.hpp"
#include "ctrl/workqueue/rate_limiter.hpp"
#include "ctrl/workqueue/rate_limiting_interface.hpp"

#include <boost/asio/any_io_executor.hpp>

namespace ctrl::workqueue {

namespace internal {
// V(1) "shutting down" of the "workqueue" logger, once per queue (the first shutdown call).
void LogShutDown(const std::string& queue, bool drain, std::size_t pending);
}  // namespace internal

// How a Queue is set up. Every field has the default a controller gets.
template <typename T, typename Hash = std::hash<T>, typename Eq = std::equal_to<T>>
struct QueueOptions {
    // The queue's name: the `name` and `controller` labels of its metrics (a controller's
    // queue is named after the controller). Empty: no metrics, as client-go's unnamed queues.
    std::string name{};
    // Where the metrics are registered; must outlive the queue.
    metrics::Registry* registry = &metrics::DefaultRegistry();
    // Decides AddRateLimited's delays. Null means DefaultControllerRateLimiter (5 ms doubling
    // to 1000 s per item, at most 10 retries per second after a burst of 100).
    std::shared_ptr<RateLimiter<T>> rate_limiter = nullptr;
    // How often workqueue_unfinished_work_seconds and workqueue_longest_running_processor_seconds
    // are refreshed while keys are being processed (client-go: every 500 ms).
    std::chrono::milliseconds metrics_update_period{500};
};

// A work queue with client-go's semantics, generic over the key type T (copyable, hashed by
// Hash, compared by Eq; a controller uses its request type). Add de-duplicates, a key is never
// handed out while it is being processed, delays and rate-limited retries run on one timer of
// the executor (no thread per item), and the metrics have controller-runtime's names.
//
// The caller guarantees: the executor's execution context outlives the queue and keeps
// running while consumers wait in AsyncGet or keys wait in AddAfter; no call is in progress
// when the queue is destroyed. Destroying the queue shuts it down. All methods are thread-safe.
// Priorities given to AddWithOptions are ignored (and handed out as 0): PriorityQueue honours them.
template <typename T, typename Hash = std::hash<T>, typename Eq = std::equal_to<T>>
class Queue : public RateLimitingInterface<T> {
  public:
    using Options = QueueOptions<T, Hash, Eq>;

    explicit Queue(const boost::asio::any_io_executor& executor, Options options = {})
        : Queue(executor, std::move(options), {}) {}

    ~Queue() override {
        core_->ShutDown();
        core_->PublishMetrics();
    }
    Queue(const Queue&) = delete;
    Queue& operator=(const Queue&) = delete;

    void Add(const T& item) override { core_->Add(item); }
    std::optional<T> Get() override { return core_->Get(); }
    Task<std::optional<T>> AsyncGet() override { return core_->AsyncGet(); }
    Task<std::optional<PrioritizedItem<T>>> AsyncGetWithPriority() override { return core_->AsyncGetWithPriority(); }
    void Done(const T& item) override { core_->Done(item); }
    void AddAfter(const T& item, std::chrono::nanoseconds delay) override { core_->AddAfter(item, delay); }
    void AddRateLimited(const T& item) override { core_->AddAfter(item, rate_limiter_->When(item)); }
    void AddWithOptions(const AddOptions& options, const T& item) override {
        std::chrono::nanoseconds delay = options.after;
        if (options.rate_limited) {
            const std::chrono::nanoseconds limited = rate_limiter_->When(item);
            delay = delay.count() <= 0 || limited < delay ? limited : delay;
        }
        const int priority = options.priority.value_or(0);
        if (delay.count() > 0 || options.rate_limited)
            core_->AddAfter(item, delay, priority);
        else
            core_->Add(item, priority);
    }
    void Forget(const T& item) override { rate_limiter_->Forget(item); }
    int NumRequeues(const T& item) const override { return rate_limiter_->NumRequeues(item); }
    std::size_t Len() const override { return core_->Len(); }
    void ShutDown() override {
        LogShutDown(false);
        core_->ShutDown();
    }
    void ShutDownWithDrain() override {
        LogShutDown(true);
        core_->ShutDownWithDrain();
    }
    Task<void> AsyncShutDownWithDrain() override {
        LogShutDown(true);
        return core_->AsyncShutDownWithDrain();
    }
    bool ShuttingDown() const override { return core_->ShuttingDown(); }

  protected:
    using Ordering = typename internal::QueueCore<T, Hash, Eq>::Ordering;

    Queue(const boost::asio::any_io_executor& executor, Options options, Ordering ordering)
        : name_(options.name),
          rate_limiter_(options.rate_limiter ? std::move(options.rate_limiter)
                                             : DefaultControllerRateLimiter<T, Hash, Eq>()),
          core_(std::make_shared<internal::QueueCore<T, Hash, Eq>>(
              executor,
              options.name.empty() ? std::nullopt
                                   : std::optional<QueueMetrics>(NewQueueMetrics(*options.registry, options.name)),
              options.metrics_update_period, ordering)) {
        if (!options.name.empty()) {
            // The queue counts under its lock; a scrape publishes the counts (Instruments).
            std::weak_ptr<internal::QueueCore<T, Hash, Eq>> core = core_;
            options.registry->AddCollectHook(core, [core] {
                if (auto alive = core.lock())
                    alive->PublishMetrics();
            });
        }
    }

  private:
    void LogShutDown(bool drain) const {
        if (!core_->ShuttingDown())
            internal::LogShutDown(name_, drain, core_->Len());
    }

    const std::string name_;
    const std::shared_ptr<RateLimiter<T>> rate_limiter_;
    const std::shared_ptr<internal::QueueCore<T, Hash, Eq>> core_;
};

// A Queue that hands out keys by priority (controller-runtime's priorityqueue): higher first,
// first in first out within a priority, with aging so nothing starves. Keys come in at priority 0
// (Add, AddAfter, AddRateLimited) or at AddOptions::priority (AddWithOptions); a key already
// waiting keeps the higher priority and the earlier time. A key's rank is the time it was queued
// minus a head start of aging_bound / 200 per priority point (priorities count as clamped to
// [-100, 100] for this), and the smallest rank goes first: a kLowPriority key waits behind normal
// keys queued up to aging_bound / 2 after it, and once a key has waited aging_bound nothing
// queued after it goes ahead of it, whatever its priority. workqueue_depth is reported per
// priority level.
template <typename T, typename Hash = std::hash<T>, typename Eq = std::equal_to<T>>
class PriorityQueue final : public Queue<T, Hash, Eq> {
  public:
    using Options = QueueOptions<T, Hash, Eq>;

    explicit PriorityQueue(const boost::asio::any_io_executor& executor, Options options = {},
                           std::chrono::nanoseconds aging_bound = kDefaultAgingBound)
        : Queue<T, Hash, Eq>(executor, std::move(options), OrderingFor(aging_bound)) {}

    // The default aging bound: five minutes.
    static constexpr std::chrono::nanoseconds kDefaultAgingBound = std::chrono::minutes(5);

  private:
    static typename Queue<T, Hash, Eq>::Ordering OrderingFor(std::chrono::nanoseconds aging_bound) {
        const auto step = std::chrono::duration_cast<std::chrono::steady_clock::duration>(aging_bound) / 200;
        return {true, step.count() > 0 ? step : std::chrono::steady_clock::duration(1)};
    }
};

// Instantiated once in queue.cpp for the common key types.
extern template class Queue<ObjectKey>;
extern template class Queue<std::string>;
extern template class PriorityQueue<ObjectKey>;
extern template class PriorityQueue<std::string>;

}  // namespace ctrl::workqueue
