#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <utility>

#include "ctrl/core/task.hpp"
#include "ctrl/workqueue/priority.hpp"

namespace ctrl::workqueue {

// What a controller needs from its work queue (client-go's TypedRateLimitingInterface): a
// de-duplicating FIFO of keys that never hands out a key while it is being processed, with
// delayed and rate-limited adds. Consumers take keys with Get (a plain thread) or AsyncGet (a
// coroutine on an executor) and must call Done for every key they take. Implementations are
// thread-safe. workqueue::Queue and workqueue::PriorityQueue implement it; a fake in a test can
// too. AddWithOptions and AsyncGetWithPriority have defaults for a queue without priorities
// (what controller-runtime's wrapper of a plain queue does): the priority is ignored, and 0.
template <typename T>
class RateLimitingInterface {
  public:
    virtual ~RateLimitingInterface() = default;

    // Marks item as needing processing. A key already waiting is not queued twice; a key being
    // processed is queued again when its Done comes. Ignored once shutting down.
    virtual void Add(const T& item) = 0;
    // Blocks until a key is available and hands it out; nullopt once the queue is shutting down
    // and has nothing left. Never call it on an event-loop thread: use AsyncGet there.
    virtual std::optional<T> Get() = 0;
    // Get for coroutines: suspends without blocking the thread. The executor running the
    // coroutine must keep running until the wait ends (an item or ShutDown).
    virtual Task<std::optional<T>> AsyncGet() = 0;
    // Ends the processing of item (handed out by Get/AsyncGet); requeues it if it was added
    // meanwhile. A key that is not being processed is ignored.
    virtual void Done(const T& item) = 0;
    // Adds item once delay has passed (at once when delay <= 0). A key already waiting keeps
    // the earlier of its deadlines. Counts a retry.
    virtual void AddAfter(const T& item, std::chrono::nanoseconds delay) = 0;
    // AddAfter with the delay the rate limiter gives for item (one more failure of it).
    virtual void AddRateLimited(const T& item) = 0;
    // Clears the rate limiter's failures of item (call it when item succeeded).
    virtual void Forget(const T& item) = 0;
    // The rate limiter's failures of item since its last Forget.
    virtual int NumRequeues(const T& item) const = 0;
    // The number of keys waiting to be handed out (informational: racy by nature).
    virtual std::size_t Len() const = 0;
    // Stops accepting keys, drops delayed ones and wakes every waiting consumer; keys already
    // queued are still handed out, then Get returns nullopt. Cancels a pending drain.
    virtual void ShutDown() = 0;
    // ShutDown, then blocks until every key handed out has been Done (or ShutDown is called).
    // Consumers must keep calling Done, or this never returns.
    virtual void ShutDownWithDrain() = 0;
    // ShutDownWithDrain for coroutines.
    virtual Task<void> AsyncShutDownWithDrain() = 0;
    virtual bool ShuttingDown() const = 0;

    // Add, AddAfter or AddRateLimited as options say, at options.priority where the queue has
    // priorities (controller-runtime's AddWithOpts).
    virtual void AddWithOptions(const AddOptions& options, const T& item) {
        if (options.rate_limited)
            AddRateLimited(item);  // without priorities the rate limiter's delay is the one kept
        else if (options.after.count() > 0)
            AddAfter(item, options.after);
        else
            Add(item);
    }
    // AsyncGet with the priority the item was wanted at (0 without priorities).
    virtual Task<std::optional<PrioritizedItem<T>>> AsyncGetWithPriority() {
        std::optional<T> item = co_await AsyncGet();
        if (!item)
            co_return std::nullopt;
        co_return PrioritizedItem<T>{std::move(*item), 0};
    }
};

}  // namespace ctrl::workqueue
